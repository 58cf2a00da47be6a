import { setupStepKeys } from '../rules/studio-setup.ts';
import { z } from '../zod.ts';

const stepMessage = `El paso no existe. Usa uno de estos: ${setupStepKeys.join(', ')}.`;
const skippedMessage = 'Indica con true o false si el paso se omite.';
const publishedMessage = 'Indica con true o false si el estudio se publica.';

/** One step of setting up the studio (decision 129): done is read from the data, skipped is the owner's choice. */
export const setupStepOutput = z.object({
  key: z.enum(setupStepKeys),
  title: z.string(),
  /** What the step is about, in one line. */
  hint: z.string(),
  done: z.boolean(),
  skipped: z.boolean(),
  /** What is still missing, or what is there ('2 ubicaciones'); null when there is nothing to say. */
  detail: z.string().nullable(),
  /**
   * What the console offers beside the step's own screen: confirming the zone in effect as it is, or offering card
   * and cash at the checkout of a studio that has no way to pay yet.
   */
  action: z.enum(['confirmTimezone', 'addPaymentMethods', 'createDocumentTemplates']).nullable(),
});
export type SetupStepOutput = z.infer<typeof setupStepOutput>;

export const studioSetupOutput = z.object({
  /** Whether the portal is open to the public; until then it shows "Próximamente". */
  published: z.boolean(),
  steps: z.array(setupStepOutput),
  /** Steps done, out of all of them (skipped ones are not done). */
  done: z.number(),
  total: z.number(),
});
export type StudioSetupOutput = z.infer<typeof studioSetupOutput>;

/** PUT /api/setup/steps/{step}: skip a step for now, or take it back. */
export const setupStepSkipInput = z.object({
  step: z.enum(setupStepKeys, { error: stepMessage }),
  skipped: z.boolean({ error: skippedMessage }),
});

/** PUT /api/setup/publication: open the portal to the public, or close it again. */
/** Creating the missing documents from their templates takes nothing but the call (an empty object, as every console call sends one). */
export const documentTemplatesInput = z.object({});

export const studioPublicationInput = z.object({
  published: z.boolean({ error: publishedMessage }),
});

/** POST /api/setup/payments/check: tries the server's Stripe key; it takes nothing but the call. */
export const cardPaymentsCheckInput = z.object({});

/** What the card payments check found (decision 132): each line a fact, ok or to fix, in Spanish. */
export const cardPaymentsCheckOutput = z.object({
  /** 'stripe' when the server has a secret key; 'sandbox' when cards go to the embedded test provider. */
  provider: z.enum(['stripe', 'sandbox']),
  /** Whether the studio can take real card payments as configured. */
  ready: z.boolean(),
  lines: z.array(z.object({ ok: z.boolean(), text: z.string() })),
});
export type CardPaymentsCheckOutput = z.infer<typeof cardPaymentsCheckOutput>;
