import { routes } from "@gradecast/contract/routes/index";
import type { FastifyInstance } from "fastify";
import { localeOf } from "../http/locale.ts";
import { perAccount } from "../http/rate-limits.ts";
import { actorOf } from "../http/request-actor.ts";
import { serve } from "../http/route-schemas.ts";
import type { Services } from "../services.ts";
import { contestPrediction } from "./oversight.ts";
import {
  confirmConsent,
  consentStatus,
  requestConsent,
  viewConsent,
  withdrawByAdmin,
  withdrawByGuardian,
} from "./service.ts";

// Guardian consent and contesting a prediction (issue 31 part B). The guardian's routes take
// anyone (the link's token is the proof) and are limited per address against guessing.

export async function consentRoutes(app: FastifyInstance, services: Services) {
  const perUser = perAccount(services, "consent", 10, 60_000);
  // Anonymous callers are counted per client address.
  const perAddress = perAccount(services, "consent-link", 30, 60_000);

  serve(app, routes.consent.mine, async (request) => {
    return consentStatus(services, actorOf(request).user);
  });

  serve(app, routes.consent.request, { config: { ...perUser } }, async (request, reply) => {
    const status = await requestConsent(services, actorOf(request), request.body.guardianEmail);
    return reply.code(202).send(status);
  });

  serve(app, routes.consent.view, { config: { ...perAddress } }, async (request) => {
    return viewConsent(services, request.body.token, localeOf(request));
  });

  serve(app, routes.consent.confirm, { config: { ...perAddress } }, async (request) => {
    return confirmConsent(services, {
      ...request.body,
      ip: request.ip ?? null,
      locale: localeOf(request),
    });
  });

  serve(app, routes.consent.withdraw, { config: { ...perAddress } }, async (request) => {
    await withdrawByGuardian(services, request.body.token, request.ip ?? null);
    return {
      message:
        "Your consent is withdrawn: no new estimates are made, and teachers no longer see the student's.",
    };
  });

  serve(app, routes.consent.adminWithdraw, async (request) => {
    return withdrawByAdmin(services, actorOf(request), request.params.uid);
  });

  serve(app, routes.consent.contest, { config: { ...perUser } }, async (request) => {
    return contestPrediction(services, actorOf(request), request.params.id, request.body.reason);
  });
}
