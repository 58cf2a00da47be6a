import { domainErrors, type DomainErrorCode } from '../errors.ts';
import { fromCents, toCents } from '../rules/money.ts';
import { z } from '../zod.ts';
import { email, roles } from './auth.ts';
import { availableClassesOutput } from './booking.ts';
import { classPackageOutput, purchaseOutput } from './checkout.ts';
import { customerOutput, customerUpdateInput } from './customer.ts';
import { instant } from './dates.ts';
import { bodyId, id, isoDateTime, periodEnum } from './fields.ts';

/**
 * The admin console's commerce contract: customers, packages and
 * discounts. Money travels as numeric(12,2) strings; the rules below work in
 * integer centavos. Lists page on the server: `page` from 1, `limit` rows.
 */

const optionalText = (max: number) => z.string().trim().max(max).nullish();

/** Admin lists: `query` searches, `page` from 1, `limit` rows per page (default 25, at most 100). */
const pageFields = {
  query: z.string().trim().max(200).optional(),
  page: z.coerce.number({ error: 'Debe ser un número.' }).int().min(1).max(100_000).default(1),
  limit: z.coerce.number({ error: 'Debe ser un número.' }).int().min(1).max(100).default(25),
};

/** '1350', '1350.5', 1350.5 → '1350.50'. At most 2 decimals and 10 integer digits (numeric(12,2)); never negative. */
const isMoneyText = (v: unknown) => (typeof v === 'string' || typeof v === 'number') && /^\d{1,10}(\.\d{1,2})?$/.test(String(v).trim());
export const moneyInput = (what: string) =>
  z
    .union([z.string().trim(), z.number()])
    // Empty says what to write; `abort` so the format check below does not add a second message.
    .refine((v) => String(v).trim() !== '', { error: `Escribe ${what.charAt(0).toLowerCase()}${what.slice(1)}.`, abort: true })
    .refine((v) => isMoneyText(v), {
      error: `${what} debe ser un importe en pesos con hasta dos decimales.`,
    })
    .transform((v) => fromCents(toCents(v)));

// ---------- Customers ----------

export const adminCustomersInput = z.object(pageFields);

/** A row of the admin customer list and of the picker lookup. */
export const adminCustomerRow = z.object({
  customer_id: z.number(),
  name: z.string(),
  last_name: z.string(),
  email: z.string(),
  phone: z.string().nullable(),
  /** 'AAAA-MM-DD' (staff and admins read these rows). */
  birthdate: z.string().nullable(),
  role: z.enum(roles),
  has_unlimited: z.boolean(),
  createdAt: isoDateTime,
});
export type AdminCustomerRow = z.infer<typeof adminCustomerRow>;

/**
 * A search counts its matches up to this many (decision 058): past it the
 * desk is told to write more, and the count stays as cheap with 200,000
 * customers as with 2,000. The list without a search counts them all.
 */
export const customerSearchCountCap = 100;

export const adminCustomersOutput = z.object({
  customers: z.array(adminCustomerRow),
  /** Customers that match; for a search, at most customerSearchCountCap. */
  total: z.number(),
  /** True when a search matches more customers than `total` (then `total` is customerSearchCountCap). */
  total_capped: z.boolean(),
});

/** GET /api/customer/query?query=: at most 10 matches for a picker. */
export const customerQueryInput = z.object({ query: z.string().trim().min(1, { error: 'Escribe un nombre, correo o teléfono.' }).max(200) });
export const customerQueryOutput = z.object({ customers: z.array(adminCustomerRow) });

export const purchasesSummary = z.object({
  /** Every purchase of the customer, any status. */
  total: z.number(),
  /** Purchases giving access now (status active). */
  active: z.number(),
  /** Sum of total_payment of paid purchases (active and completed). */
  total_paid: z.string(),
  last_purchase_at: isoDateTime.nullable(),
});

/** GET /api/customer/admin/{id}: the customer, usable credits and membership, and the purchases. */
export const adminCustomerOneOutput = z.object({
  customer: customerOutput,
  credits: availableClassesOutput,
  purchases: z.array(purchaseOutput),
  purchases_summary: purchasesSummary,
});

/**
 * PUT /api/customer: a customer saves its own profile; an admin may name
 * another `customer_id` and may change `role`. The phone keeps the sign-up
 * rules (format, 10 digits, unique).
 */
export const customerSaveInput = customerUpdateInput.extend({
  customer_id: bodyId.optional(),
  /**
   * An admin changes another customer's sign-in e-mail: the same rules as a confirmed change. A customer
   * sends her own back unchanged; a different one is refused (her change goes through the mailed link).
   */
  email: email.optional(),
  role: z.enum(roles, { error: 'El rol debe ser Cliente, Recepción, Administrador o Coach.' }).optional(),
});

export const customerRecoverInput = z.object({ email });

/**
 * POST /api/customer/password: the customer, at the counter, types her new password on the studio's
 * screen (decision 079). Staff never see a code that signs in as her; the change is audited.
 */
export const customerSetPasswordInput = z
  .object({
    customer_id: z.number().int().positive(),
    password: z.string().min(1).max(256),
    password_confirm: z.string().min(1).max(256),
  })
  .refine((v) => v.password === v.password_confirm, { error: 'Las contraseñas no coinciden', path: ['password_confirm'] });
export const messageOutput = z.object({ message: z.string() });

/**
 * The desk's access changes (POST /customer/giveAccess, PUT /customer/revokeAccess,
 * PUT /customer/removeClasses): the spec's message and ids, and what was stored
 * (the purchase, or the customer's credits now), so a client sees what was kept.
 */
export const giveAccessOutput = z.object({ message: z.string(), purchase_id: z.number().int(), purchase: purchaseOutput });
export const revokeAccessOutput = giveAccessOutput.extend({ available_class_ids: z.array(z.number().int()) });
export const removeClassesOutput = z.object({ message: z.string(), available_class_ids: z.array(z.number().int()), credits: availableClassesOutput });

// ---------- Packages ----------

export const classPackageTypeInput = z.object({
  class_type_id: bodyId,
  /** Credits for that class type; -1 unlimited. */
  class_amount: z.number({ error: 'Debe ser un número.' }).int().min(-1, { error: 'Las clases deben ser -1 (ilimitadas) o más.' }).max(10_000),
  expiration_days: z.number().int().positive().max(3650).nullish(),
  /** Comma list of start times 'HH:mm'; null: any time. */
  allowed_times: z
    .string()
    .trim()
    .max(500)
    .regex(/^([01]\d|2[0-3]):[0-5]\d(\s*,\s*([01]\d|2[0-3]):[0-5]\d)*$/, { error: 'Los horarios deben ser horas HH:mm separadas por comas.' })
    .nullish()
    .or(z.literal('').transform(() => null)),
});

const packageFields = {
  title: z.string().trim().min(1, { error: 'Debes escribir el nombre del paquete.' }).max(200),
  description: optionalText(20_000),
  short_description: optionalText(1000),
  price: moneyInput('El precio'),
  sale_price: moneyInput('El precio de oferta').nullish(),
  class_amount: z.number({ error: 'Debe ser un número.' }).int().min(-1, { error: 'Las clases deben ser -1 (ilimitadas) o más.' }).max(10_000),
  expiration_days: z.number().int().positive().max(3650).nullish(),
  is_subscription: z.boolean().optional(),
  subscription_period: periodEnum.nullish(),
  subscription_interval: z.number().int().positive().max(365).nullish(),
  free_trial_length: z.number().int().min(0).max(365).nullish(),
  free_trial_period: periodEnum.nullish(),
  is_trial: z.boolean().optional(),
  is_special_event: z.boolean().optional(),
  event_date: instant('La fecha del evento').nullish(),
  is_presencial: z.boolean().optional(),
  is_online: z.boolean().optional(),
  is_signup_fee: z.boolean().optional(),
  limit_per_customer: z.number().int().positive().max(10_000).nullish(),
  people_limit: z.number().int().min(0).max(1_000_000).nullish(),
  image: optionalText(2000),
  receipt_file_id: bodyId.nullish(),
  downloadable_file_id: bodyId.nullish(),
  show_on_home: z.boolean().optional(),
  available: z.boolean().optional(),
  order: z.number().int().min(0).max(100_000).optional(),
  /** Replaces the package's credits per class type when sent. */
  class_package_types: z.array(classPackageTypeInput).max(50).optional(),
};

/** The fields the package rules read, after a create or a merged update. */
export interface PackageRuleFields {
  price: string;
  sale_price?: string | null | undefined;
  is_subscription?: boolean | undefined;
  subscription_period?: string | null | undefined;
  subscription_interval?: number | null | undefined;
  free_trial_length?: number | null | undefined;
  free_trial_period?: string | null | undefined;
  class_package_types?: readonly { class_type_id: number }[] | undefined;
}

/**
 * The cross-field rules of a package, shared by the create schema and the
 * update service (which checks the merged row): the sale price is below the
 * price; a subscription has a period and an interval, and a one-off package
 * has neither nor a free trial; each class type appears once.
 */
export function packageRuleViolation(p: PackageRuleFields): { code: DomainErrorCode; field: string } | null {
  if (p.sale_price !== null && p.sale_price !== undefined && toCents(p.sale_price) >= toCents(p.price)) {
    return { code: 'package/sale-price', field: 'sale_price' };
  }
  if (p.is_subscription) {
    if (!p.subscription_period || !p.subscription_interval) return { code: 'package/subscription-fields', field: 'subscription_period' };
  } else if (p.subscription_period || p.subscription_interval || p.free_trial_length || p.free_trial_period) {
    return { code: 'package/not-subscription', field: 'is_subscription' };
  }
  const types = (p.class_package_types ?? []).map((t) => t.class_type_id);
  if (new Set(types).size !== types.length) return { code: 'package/class-type-repeated', field: 'class_package_types' };
  return null;
}

export const classPackageCreateInput = z.object(packageFields).superRefine((p, ctx) => {
  const violation = packageRuleViolation(p);
  if (violation) ctx.addIssue({ code: 'custom', path: [violation.field], message: domainErrors[violation.code].message });
});
export type ClassPackageCreateInput = z.infer<typeof classPackageCreateInput>;

/** PUT /api/class_packages: the id and the fields that change (the rules are checked on the merged package). */
export const classPackageUpdateInput = z.object({ class_package_id: bodyId, ...z.object(packageFields).partial().shape });
export type ClassPackageUpdateInput = z.infer<typeof classPackageUpdateInput>;

export const adminPackagesInput = z.object({
  ...pageFields,
  /** Include soft-deleted packages (kept because purchases reference them). */
  include_deleted: z
    .union([z.boolean(), z.enum(['true', 'false'])])
    .transform((v) => v === true || v === 'true')
    .default(false),
});

/** The shop's package plus what only the admin sees. */
export const classPackageAdminOutput = classPackageOutput.extend({
  available: z.boolean(),
  deletedAt: isoDateTime.nullable(),
  receipt_file_id: z.number().nullable(),
  downloadable_file_id: z.number().nullable(),
  stripe_product_id: z.string().nullable(),
  stripe_price_id: z.string().nullable(),
  /** Purchases of the package, any status (a package with purchases is only soft-deleted). */
  purchases: z.number(),
  createdAt: isoDateTime,
  updatedAt: isoDateTime,
});
export type ClassPackageAdminOutput = z.infer<typeof classPackageAdminOutput>;

export const adminPackagesOutput = z.object({ class_packages: z.array(classPackageAdminOutput), total: z.number() });
export const adminPackageOneOutput = z.object({ class_package: classPackageAdminOutput });
export const adminPackageMessageOutput = z.object({ message: z.string(), class_package: classPackageAdminOutput });
export const packageRemovedOutput = z.object({
  deleted: z.literal(true),
  id: z.number(),
  /** True when purchases reference it: hidden and marked deleted instead of removed. */
  soft: z.boolean(),
});

// ---------- Discounts ----------

const discountFields = {
  code: z
    .string()
    .trim()
    .min(1, { error: 'Escribe un código de descuento.' })
    .max(64)
    .regex(/^[A-Za-z0-9_-]+$/, { error: 'El código solo puede tener letras, números, guiones y guiones bajos.' })
    .transform((v) => v.toUpperCase()),
  description: optionalText(1000),
  /** Percent (1-100) when is_percent, otherwise MXN off. */
  amount: moneyInput('El descuento'),
  is_percent: z.boolean().optional(),
  first_invoice_only: z.boolean().optional(),
  max_uses: z.number().int().min(0).max(10_000_000).nullish(),
  max_uses_per_customer: z.number().int().min(0).max(10_000).nullish(),
  starts_at: instant('La fecha de inicio').nullish(),
  expires_at: instant('La fecha de fin').nullish(),
  available: z.boolean().optional(),
  /** Packages the code applies to; empty: every package. */
  class_package_ids: z.array(bodyId).max(200).optional(),
};

export interface DiscountRuleFields {
  amount: string;
  is_percent?: boolean | undefined;
  starts_at?: string | Date | null | undefined;
  expires_at?: string | Date | null | undefined;
  max_uses?: number | null | undefined;
  /** Uses already made (0 on create). */
  uses?: number | undefined;
}

const time = (v: string | Date) => (typeof v === 'string' ? Date.parse(v) : v.getTime());

/** Percent 1..100 or an amount above 0; the end after the start; max_uses not below the uses already made. */
export function discountRuleViolation(d: DiscountRuleFields): { code: DomainErrorCode; field: string } | null {
  const cents = toCents(d.amount);
  if (d.is_percent && (cents < 100 || cents > 10_000)) return { code: 'discount/percent-range', field: 'amount' };
  if (!d.is_percent && cents <= 0) return { code: 'discount/amount-positive', field: 'amount' };
  if (d.starts_at && d.expires_at && time(d.expires_at) <= time(d.starts_at)) return { code: 'discount/dates', field: 'expires_at' };
  if (d.max_uses !== null && d.max_uses !== undefined && d.max_uses < (d.uses ?? 0)) return { code: 'discount/max-uses-below-uses', field: 'max_uses' };
  return null;
}

export const discountCreateInput = z.object(discountFields).superRefine((d, ctx) => {
  // zod runs this even when a field failed: an amount that is not money already has its message (it threw).
  if (!isMoneyText(d.amount)) return;
  const violation = discountRuleViolation(d);
  if (violation) ctx.addIssue({ code: 'custom', path: [violation.field], message: domainErrors[violation.code].message });
});
export type DiscountCreateInput = z.infer<typeof discountCreateInput>;

export const discountUpdateInput = z.object({ discount_id: bodyId, ...z.object(discountFields).partial().shape });
export type DiscountUpdateInput = z.infer<typeof discountUpdateInput>;

export const adminDiscountsInput = z.object(pageFields);
export const discountIdInput = z.object({ id });

export const discountAdminOutput = z.object({
  discount_id: z.number(),
  code: z.string(),
  description: z.string().nullable(),
  amount: z.string(),
  is_percent: z.boolean(),
  first_invoice_only: z.boolean(),
  max_uses: z.number().nullable(),
  max_uses_per_customer: z.number().nullable(),
  uses: z.number(),
  starts_at: isoDateTime.nullable(),
  expires_at: isoDateTime.nullable(),
  available: z.boolean(),
  class_package_ids: z.array(z.number()),
  createdAt: isoDateTime,
  updatedAt: isoDateTime,
});
export type DiscountAdminOutput = z.infer<typeof discountAdminOutput>;

export const adminDiscountsOutput = z.object({ discounts: z.array(discountAdminOutput), total: z.number() });
export const adminDiscountOneOutput = z.object({ discount: discountAdminOutput });
export const discountRemovedOutput = z.object({
  deleted: z.literal(true),
  id: z.number(),
  /** True when purchases used it: disabled and marked deleted, so their history keeps the code. */
  soft: z.boolean(),
});
