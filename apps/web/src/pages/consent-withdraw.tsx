import { GuardianWithdraw } from "../features/consent/guardian-pages.tsx";

/** The target of the confirmation email's withdrawal link: /consent/withdraw?token=… */
export default GuardianWithdraw;
