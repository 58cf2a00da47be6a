import { z } from '../zod.ts';
import { bodyId } from './fields.ts';

/**
 * The API contract of "Mi Información" beyond the customer row:
 * addresses. The customer save itself is in ./customer.ts.
 */

const optionalText = (max: number) => z.string().trim().max(max).nullish();

/** Spec, account area §5: city, state and country are required with these alerts. */
export const addressMessages = {
  city: 'Debes agregar tu ciudad.',
  state: 'Debes agregar tu estado.',
  country: 'Debes agregar tu país.',
} as const;

/**
 * The server checks city, state and country itself so its 400 carries exactly
 * the spec's alert ('address/city-required' ...); the portal shows the same
 * alerts through validateAddress. Here they are only shaped.
 */
const requiredText = () => z.string().trim().max(200).nullish();

export const addressFields = {
  street: optionalText(200),
  number: optionalText(50),
  interior_number: optionalText(50),
  neighborhood: optionalText(200),
  city: requiredText(),
  state: requiredText(),
  country: requiredText(),
  zip_code: optionalText(20),
};

export const addressOutput = z.object({
  address_id: z.number(),
  customer_id: z.number().nullable(),
  street: z.string().nullable(),
  number: z.string().nullable(),
  interior_number: z.string().nullable(),
  neighborhood: z.string().nullable(),
  city: z.string(),
  state: z.string(),
  country: z.string(),
  zip_code: z.string().nullable(),
  createdAt: z.string(),
  updatedAt: z.string(),
});
export type AddressOutput = z.infer<typeof addressOutput>;

/** POST /api/addresses: always the caller's own; the first address becomes the customer's address_id. */
export const addressCreateInput = z.object(addressFields);
/** PUT /api/addresses: a partial update of the caller's own address. */
export const addressUpdateInput = z.object({
  address_id: bodyId,
  ...z.object(addressFields).partial().shape,
});
export const addressesListOutput = z.object({ addresses: z.array(addressOutput) });
export const addressOneOutput = z.object({ address: addressOutput });
