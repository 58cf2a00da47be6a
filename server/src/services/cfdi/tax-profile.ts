import { DomainError, normalizeLegalName, normalizeRfc, rfcKind, taxProfileProblem, taxProfileProblemText, type TaxProfileBody, type z } from '@estudio/core';
import type { taxProfileOutput } from '@estudio/core';
import { eq } from 'drizzle-orm';
import { tax_profile } from '@estudio/db/schema/cfdi';
import type { Db } from '../../db.ts';

type TaxProfileRow = typeof tax_profile.$inferSelect;

export function taxProfileOutputOf(row: TaxProfileRow | null | undefined): z.infer<typeof taxProfileOutput> {
  if (!row) return { tax_profile: null };
  return {
    tax_profile: {
      rfc: row.rfc,
      legal_name: row.legal_name,
      tax_regime: row.tax_regime,
      cfdi_use: row.cfdi_use,
      postcode: row.postcode,
      email: row.email,
      persona: rfcKind(row.rfc) === 'moral' ? 'moral' : 'fisica',
      updatedAt: row.updatedAt.toISOString(),
    },
  };
}

/** The values as they are stored and sent to the SAT: RFC and name in upper case, codes and postcode trimmed. */
export function normalizedTaxProfile(input: TaxProfileBody) {
  return {
    rfc: normalizeRfc(input.rfc),
    legal_name: normalizeLegalName(input.legal_name),
    tax_regime: input.tax_regime.trim(),
    cfdi_use: input.cfdi_use.trim().toUpperCase(),
    postcode: input.postcode.trim(),
    email: input.email?.trim().toLowerCase() || null,
  };
}

/**
 * A tax profile checked as the SAT will check it (core's taxProfileProblem):
 * 400 'tax-profile/invalid' naming the field, with the Spanish reason; nothing
 * already saved is touched on a refusal.
 */
export function assertTaxProfile(input: TaxProfileBody): ReturnType<typeof normalizedTaxProfile> {
  const values = normalizedTaxProfile(input);
  const problem = taxProfileProblem(values);
  if (problem) throw Object.assign(new DomainError('tax-profile/invalid', taxProfileProblemText(problem)), { field: problem.field });
  if (values.email && !/^[^\s@]+@[^\s@]+\.[^\s@]+$/.test(values.email)) {
    throw Object.assign(new DomainError('tax-profile/invalid', 'Escribe un correo válido para recibir tus facturas, o déjalo vacío.'), { field: 'email' });
  }
  return values;
}

export async function getTaxProfile(db: Db, customerId: number) {
  const [row] = await db.select().from(tax_profile).where(eq(tax_profile.customer_id, customerId));
  return taxProfileOutputOf(row);
}

/** PUT /api/customer/tax_profile: the caller's own tax profile, created or replaced whole. */
export async function saveTaxProfile(db: Db, customerId: number, input: TaxProfileBody) {
  const values = assertTaxProfile(input);
  const now = new Date();
  const [row] = await db
    .insert(tax_profile)
    .values({ customer_id: customerId, ...values, createdAt: now, updatedAt: now })
    .onConflictDoUpdate({ target: tax_profile.customer_id, set: { ...values, updatedAt: now } })
    .returning();
  return taxProfileOutputOf(row);
}

/** DELETE /api/customer/tax_profile: invoices already issued keep the data they were issued with. */
export async function deleteTaxProfile(db: Db, customerId: number) {
  await db.delete(tax_profile).where(eq(tax_profile.customer_id, customerId));
  return { tax_profile: null };
}
