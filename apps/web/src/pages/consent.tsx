import { GuardianConsent } from "../features/consent/guardian-pages.tsx";

/** The target of the guardian's emailed link: /consent?token=… (no sign-in). */
export default GuardianConsent;
