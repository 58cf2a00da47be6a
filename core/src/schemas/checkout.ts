import { z } from '../zod.ts';
import { installmentPlanOutput, paymentChannelEnum, paymentInstructionsOutput, purchaseCfdiOutput } from './mexico.ts';
import { id, isoDateTime, money, periodEnum } from './fields.ts';

/**
 * The API contract of the shop: packages, discounts, checkout,
 * purchases, invoices and saved cards. Money travels as decimal strings with
 * two decimals ('1350.00'), never floats; timestamps as ISO strings.
 */


// ---------- Packages ----------

export const classPackageTypeOutput = z.object({
  class_type_id: z.number(),
  class_amount: z.number(),
  expiration_days: z.number().nullable(),
  allowed_times: z.string().nullable(),
  class_type: z.object({ class_type_id: z.number(), name: z.string() }),
});

export const classPackageOutput = z.object({
  class_package_id: z.number(),
  /** Same as class_package_id (the spec names both). */
  package_id: z.number(),
  title: z.string(),
  description: z.string().nullable(),
  short_description: z.string().nullable(),
  price: money,
  sale_price: money.nullable(),
  /** -1 unlimited; 0 grants no class credits. */
  class_amount: z.number(),
  expiration_days: z.number().nullable(),
  is_subscription: z.boolean(),
  subscription_period: periodEnum.nullable(),
  subscription_interval: z.number().nullable(),
  free_trial_length: z.number().nullable(),
  free_trial_period: periodEnum.nullable(),
  /** The spec's trial rule applied (is_trial, or one class limited to one purchase). */
  is_trial: z.boolean(),
  is_special_event: z.boolean(),
  event_date: isoDateTime.nullable(),
  is_presencial: z.boolean(),
  is_online: z.boolean(),
  is_signup_fee: z.boolean(),
  limit_per_customer: z.number().nullable(),
  people_limit: z.number().nullable(),
  image: z.string().nullable(),
  show_on_home: z.boolean(),
  order: z.number(),
  receipt_file: z.object({ src: z.string() }).nullable(),
  downloadable: z.object({ name: z.string(), type: z.string() }).nullable(),
  file_url: z.string().nullable(),
  class_package_types: z.array(classPackageTypeOutput),
});
export type ClassPackageOutput = z.infer<typeof classPackageOutput>;

export const classPackageIdInput = z.object({ id });
export const classPackagesOutput = z.object({ class_packages: z.array(classPackageOutput) });
export const classPackageOneOutput = z.object({ class_package: classPackageOutput });

export const attendeeOutput = z.object({
  customer_id: z.number(),
  name: z.string().nullable(),
  last_name: z.string().nullable(),
  email: z.string().nullable(),
  phone: z.string().nullable(),
  purchase_id: z.number(),
  status: z.string(),
});
export const attendeesOutput = z.object({ customers: z.array(attendeeOutput) });

// ---------- Discounts ----------

export const discountOutput = z.object({
  discount_id: z.number(),
  code: z.string(),
  description: z.string().nullable(),
  /** Percent (0-100) when is_percent, otherwise MXN off. */
  amount: money,
  is_percent: z.boolean(),
  first_invoice_only: z.boolean(),
});
export type DiscountOutput = z.infer<typeof discountOutput>;

export const discountValidateInput = z.object({
  code: z.string().trim().min(1, { error: 'Escribe un código de descuento.' }).max(64),
  class_package_id: id,
});
export const discountValidateOutput = z.object({
  discount: discountOutput,
  /** The first charge after the discount, two decimals. */
  total: money,
});

// ---------- Checkout ----------

const discountCode = z
  .string()
  .trim()
  .max(64)
  .nullish()
  .transform((v) => (v ? v : undefined));

export const checkoutAttemptInput = z.object({
  class_package_id: id,
  discountCode,
  /** payment_method_id: 1 card, the 'Efectivo' id for cash, the PayPal id (use /checkout/paypal). */
  payment_method: id,
  /** Pay with a saved card (payment_sources). */
  payment_source_id: id.nullish(),
  /** A provider PaymentMethod id made in the browser (sandbox: see sandbox-cards). With it, the charge happens now. */
  payment_method_token: z.string().trim().min(1).max(255).nullish(),
  /** Save the card of payment_method_token as a payment source (with card_type and last_digits). */
  save_card: z.boolean().optional(),
  card_type: z.string().trim().max(20).nullish(),
  last_digits: z.string().trim().max(4).nullish(),
  /** Ask the card's meses sin intereses plans before charging it (decision 082): answered as installment_plans. */
  ask_installments: z.boolean().optional(),
});
export type CheckoutAttemptInput = z.infer<typeof checkoutAttemptInput>;

/** Exactly one of the three is present. */
export const checkoutAttemptOutput = z.object({
  clientSecret: z.string().optional(),
  purchase_id: z.number().optional(),
  session: z.object({ url: z.string() }).optional(),
  /** The meses sin intereses the card has for this payment: the customer chooses, then /checkout/confirm with `installments`. */
  installment_plans: z.array(installmentPlanOutput).optional(),
});

export const checkoutCreateInput = z.object({
  class_package_id: id,
  discountCode,
  /** Omitted: free package (must cost 0) or cash when the package has a price. */
  payment_method: id.nullish(),
});
export const purchaseIdOutput = z.object({ purchase_id: z.number() });

export const checkoutConfirmInput = z.object({
  clientSecret: z.string().trim().min(1).max(255),
  /**
   * The browser's payment method (sandbox: the test token). Omitted after the
   * browser confirmed with Stripe itself: the server reads the intent and
   * grants a succeeded payment without waiting for the webhook.
   */
  payment_method_token: z.string().trim().min(1, { error: 'No has seleccionado un método de pago.' }).max(255).nullish(),
  save_card: z.boolean().optional(),
  card_type: z.string().trim().max(20).nullish(),
  last_digits: z.string().trim().max(4).nullish(),
  /** Meses sin intereses: the plan chosen among installment_plans; null or absent pays in one charge. */
  installments: z.union([z.literal(3), z.literal(6), z.literal(9), z.literal(12)]).nullish(),
});

export const checkoutPaypalInput = z.object({ class_package_id: id, discountCode });
export const checkoutPaypalOutput = z.object({
  purchase_id: z.number(),
  /** Subscriptions: the PayPal plan to subscribe to (createSubscription). */
  plan_id: z.string().optional(),
  /** One-off: the PayPal order to approve (createOrder). */
  orderID: z.string().optional(),
});

export const checkoutCaptureInput = z
  .object({
    purchase_id: id.optional(),
    orderID: z.string().trim().min(1).max(255).optional(),
    subscriptionID: z.string().trim().min(1).max(255).optional(),
  })
  .refine((v) => v.purchase_id !== undefined || v.orderID !== undefined, {
    error: 'Indica la compra (purchase_id) o la orden (orderID).',
    path: ['purchase_id'],
  });

// ---------- Purchases and invoices ----------

export const purchaseStatusEnum = z.enum(['active', 'completed', 'pending', 'failed', 'cancelled', 'revoked']);
export const invoiceStatusEnum = z.enum(['pending', 'completed', 'failed', 'cancelled', 'refunded']);

export const purchasePackageSummary = z.object({
  class_package_id: z.number(),
  title: z.string(),
  description: z.string().nullable(),
  short_description: z.string().nullable(),
  price: money,
  sale_price: money.nullable(),
  image: z.string().nullable(),
  is_subscription: z.boolean(),
  is_trial: z.boolean(),
  subscription_period: periodEnum.nullable(),
  subscription_interval: z.number().nullable(),
  receipt_file: z.object({ src: z.string() }).nullable(),
  /** Where the order page's 'Ir a Mis Clases' leads (classesPathAfterPurchase). */
  is_online: z.boolean(),
  is_presencial: z.boolean(),
});

export const invoiceSummary = z.object({
  invoice_id: z.number(),
  purchase_id: z.number(),
  total_payment: money,
  status: invoiceStatusEnum,
  period_start: isoDateTime.nullable(),
  period_end: isoDateTime.nullable(),
  paidAt: isoDateTime.nullable(),
  createdAt: isoDateTime,
});

export const purchaseOutput = z.object({
  purchase_id: z.number(),
  customer_id: z.number(),
  class_package_id: z.number(),
  title: z.string(),
  amount: money,
  total_payment: money,
  class_amount: z.number(),
  expiration_days: z.number().nullable(),
  status: purchaseStatusEnum,
  subscription_id: z.string().nullable(),
  subscription_period: periodEnum.nullable(),
  subscription_interval: z.number().nullable(),
  free_trial_length: z.number().nullable(),
  free_trial_period: periodEnum.nullable(),
  is_gift: z.boolean(),
  provider: z.string().nullable(),
  payment_method_id: z.number().nullable(),
  payment_method: z.object({ payment_method_id: z.number(), name: z.string() }).nullable(),
  /** The saved card it was paid with, as the receipt names it ('Visa terminación 4242'); null otherwise. */
  card: z.object({ card_type: z.string(), last_digits: z.string() }).nullable(),
  discount: z.object({ discount_id: z.number(), code: z.string() }).nullable(),
  customer: z.object({ customer_id: z.number(), email: z.string().nullable() }),
  class_package: purchasePackageSummary,
  cancel_reason: z.string().nullable(),
  /** End of access: membership expiry, or the end of the paid cycle after a cancel. */
  expiration_date: isoDateTime.nullable(),
  /** Only for active subscriptions (spec §4). */
  next_charge_date: isoDateTime.nullable(),
  invoices: z.array(invoiceSummary),
  created_at: isoDateTime,
  createdAt: isoDateTime,
  updatedAt: isoDateTime,
  cancelledAt: isoDateTime.nullable(),
  /** Paid (or to be paid) by OXXO voucher or SPEI transfer (decision 080). */
  payment_channel: paymentChannelEnum.nullable(),
  /** The voucher or transfer details while it matters (pending, or a transfer with money over). */
  payment_instructions: paymentInstructionsOutput.nullable(),
  /** Meses sin intereses: the plan and what each month shows (decision 082). */
  installments: installmentPlanOutput.nullable(),
  /** Its invoice (CFDI) and whether it can be asked for (decision 084). */
  cfdi: purchaseCfdiOutput,
});
export type PurchaseOutput = z.infer<typeof purchaseOutput>;

export const purchaseIdInput = z.object({ id });
export const purchasesOutput = z.object({ purchases: z.array(purchaseOutput) });
export const purchaseOneOutput = z.object({ purchase: purchaseOutput });
export const purchaseCancelInput = z.object({
  id,
  reason: z.string().trim().max(1000).optional().default(''),
});
/** An admin gives a purchase's use of its caps back; the reason is required (the service says so in Spanish). */
export const purchaseReleaseLimitInput = z.object({
  id,
  reason: z.string().trim().max(300).optional().default(''),
});
/** Staff collected an 'Efectivo' order: in cash (the drawer) or as a bank transfer (not drawer cash). */
export const purchaseMarkPaidInput = z.object({
  id,
  paid_with: z.enum(['cash', 'transfer']).default('cash'),
});

export const invoiceOutput = invoiceSummary.extend({
  class_package: z.object({ class_package_id: z.number(), title: z.string() }),
  purchase: z.object({
    purchase_id: z.number(),
    title: z.string(),
    status: purchaseStatusEnum,
    next_charge_date: isoDateTime.nullable(),
  }),
});
export const invoicesOutput = z.object({ invoices: z.array(invoiceOutput) });

// ---------- Payment methods and saved cards ----------

export const paymentMethodOutput = z.object({
  payment_method_id: z.number(),
  name: z.string(),
  description: z.string().nullable(),
  /** 'card', 'cash' or 'paypal'. */
  provider: z.string(),
});
/** A checkout payment method as admins see it (GET/POST/PUT /api/payment_methods/{id}). */
export const paymentMethodAdminOutput = paymentMethodOutput.extend({ available: z.boolean() });
export const paymentMethodResult = z.object({ payment_method: paymentMethodAdminOutput });
export const paymentMethodIdInput = z.object({ id });
export const paymentMethodCreateInput = z.object({
  name: z.string().trim().min(1, { error: 'Escribe el nombre de la forma de pago.' }).max(60),
  description: z.string().trim().max(500).nullish(),
  provider: z.enum(['card', 'cash', 'paypal'], { error: 'El proveedor debe ser card, cash o paypal.' }),
  available: z.boolean().default(true),
});
export const paymentMethodUpdateInput = paymentMethodCreateInput.partial().extend({ payment_method_id: id });

export const paymentMethodsOutput = z.object({
  payment_methods: z.array(paymentMethodOutput),
  /** Who handles cards on this server: 'stripe' (use Stripe Elements) or 'sandbox' (the sandbox card form). */
  card_provider: z.enum(['stripe', 'sandbox']),
});

export const paymentSourceOutput = z.object({
  payment_source_id: z.number(),
  source_id: z.string(),
  provider: z.string(),
  card_type: z.string(),
  last_digits: z.string(),
  exp_month: z.number().nullable(),
  exp_year: z.number().nullable(),
  createdAt: isoDateTime,
});
export type PaymentSourceOutput = z.infer<typeof paymentSourceOutput>;

const cardType = z
  .string()
  .trim()
  .toLowerCase()
  .pipe(z.enum(['visa', 'mastercard', 'amex', 'other'], { error: 'El tipo de tarjeta no es válido.' }));
const lastDigits = z.string().trim().regex(/^\d{4}$/, { error: 'Los últimos dígitos deben ser 4 números.' });

export const paymentSourceCreateInput = z.object({
  payment_method_token: z.string().trim().min(1).max(255),
  card_type: cardType,
  last_digits: lastDigits,
  // No expiry: card data never reaches the server (decision 007); Stripe's saved card carries its own.
});
export const paymentSourcesOutput = z.object({ payment_sources: z.array(paymentSourceOutput) });
/** '+ Agregar': the SetupIntent secret the browser confirms with Stripe; null in the sandbox (its form saves the test token). */
export const paymentSourceSetupOutput = z.object({ card_provider: z.enum(['stripe', 'sandbox']), clientSecret: z.string().nullable() });
export const paymentSourceOneOutput = z.object({ payment_source: paymentSourceOutput });
export const paymentSourceIdInput = z.object({ id });

/** Legacy saved-card names (spec: POST /metodosPago {token_id, card_type, last_digits, saveCard}). */
export const metodoPagoCreateInput = z.object({
  token_id: z.string().trim().min(1).max(255),
  card_type: cardType,
  last_digits: lastDigits,
  saveCard: z.boolean().optional(),
});
export const metodosPagoOutput = z.object({ metodos_pago: z.array(paymentSourceOutput) });
