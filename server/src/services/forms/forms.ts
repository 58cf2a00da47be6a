import { asc, eq, inArray } from 'drizzle-orm';
import { custom_field, form, form_field } from '@estudio/db/schema/content';
import { DomainError, type CustomFieldOutput, type FormFieldOutput, type FormOutput, type RemovedOutput, type z, type formFieldInput } from '@estudio/core';
import type { Db } from '../../db.ts';

type FormFieldInput = z.infer<typeof formFieldInput>;
type FormRow = typeof form.$inferSelect;
type FormFieldRow = typeof form_field.$inferSelect;

export interface FormFields {
  name: string;
  object?: string | null | undefined;
  placement?: 'signup' | 'booking' | 'profile' | undefined;
  form_fields: FormFieldInput[];
}

function toFieldOutput(row: FormFieldRow): FormFieldOutput {
  return {
    form_field_id: row.form_field_id,
    form_id: row.form_id,
    order: row.order,
    step: row.step,
    key: row.key,
    name: row.name,
    label: row.label,
    type: row.type,
    required: row.required,
    options: row.options ?? null,
    precondition: row.precondition ?? null,
    value: row.value,
  };
}

async function withFields(db: Db, forms: FormRow[]): Promise<FormOutput[]> {
  if (forms.length === 0) return [];
  const fields = await db
    .select()
    .from(form_field)
    .where(
      inArray(
        form_field.form_id,
        forms.map((f) => f.form_id),
      ),
    )
    .orderBy(asc(form_field.step), asc(form_field.order), asc(form_field.form_field_id));
  return forms.map((f) => ({
    form_id: f.form_id,
    name: f.name,
    object: f.object,
    placement: f.placement,
    form_fields: fields.filter((field) => field.form_id === f.form_id).map(toFieldOutput),
  }));
}

/** Every form with its fields ordered by step, then order. */
export async function listForms(db: Db): Promise<FormOutput[]> {
  return withFields(db, await db.select().from(form).orderBy(asc(form.form_id)));
}

export async function getForm(db: Db, id: number): Promise<FormOutput> {
  const [row] = await db.select().from(form).where(eq(form.form_id, id)).limit(1);
  if (!row) throw new DomainError('form/not-found');
  const [output] = await withFields(db, [row]);
  if (!output) throw new Error('form output missing');
  return output;
}

async function insertFields(db: Db, formId: number, fields: readonly FormFieldInput[]): Promise<void> {
  if (fields.length === 0) return;
  await db.insert(form_field).values(
    fields.map((f) => ({
      form_id: formId,
      order: f.order,
      step: f.step,
      key: f.key,
      name: f.name || f.key,
      label: f.label,
      type: f.type,
      required: f.required,
      options: f.options ?? null,
      precondition: f.precondition ?? null,
      value: f.value ?? null,
    })),
  );
}

/** Creates a form with its fields. */
export async function createForm(db: Db, fields: FormFields): Promise<FormOutput> {
  const formId = await db.transaction(async (tx) => {
    const [row] = await tx
      .insert(form)
      .values({ name: fields.name, object: fields.object ?? null, ...(fields.placement ? { placement: fields.placement } : {}) })
      .returning({ id: form.form_id });
    if (!row) throw new Error('form insert returned nothing');
    await insertFields(tx, row.id, fields.form_fields);
    return row.id;
  });
  return getForm(db, formId);
}

/** Updates a form; when form_fields is sent it replaces the form's fields as a whole. */
export async function updateForm(db: Db, id: number, changes: Partial<FormFields>): Promise<FormOutput> {
  await db.transaction(async (tx) => {
    const set: Partial<typeof form.$inferInsert> = {};
    if (changes.name !== undefined) set.name = changes.name;
    if (changes.object !== undefined) set.object = changes.object;
    if (changes.placement !== undefined) set.placement = changes.placement;
    const [row] = await tx
      .update(form)
      .set({ ...set, updatedAt: new Date() })
      .where(eq(form.form_id, id))
      .returning({ id: form.form_id });
    if (!row) throw new DomainError('form/not-found');
    if (changes.form_fields !== undefined) {
      await tx.delete(form_field).where(eq(form_field.form_id, id));
      await insertFields(tx, id, changes.form_fields);
    }
  });
  return getForm(db, id);
}

/** Deletes a form and its fields. */
export async function removeForm(db: Db, id: number): Promise<RemovedOutput> {
  const [row] = await db.delete(form).where(eq(form.form_id, id)).returning({ id: form.form_id });
  if (!row) throw new DomainError('form/not-found');
  return { deleted: true, id: row.id };
}

const customFieldColumns = {
  custom_field_id: custom_field.custom_field_id,
  object: custom_field.object,
  key: custom_field.key,
  label: custom_field.label,
  type: custom_field.type,
  required: custom_field.required,
  options: custom_field.options,
  sensitive: custom_field.sensitive,
};

function toCustomFieldOutput(row: { options: CustomFieldOutput['options'] | null } & Omit<CustomFieldOutput, 'options'>): CustomFieldOutput {
  return { ...row, options: row.options ?? null };
}

/** The custom fields of one object type (or all). */
export async function listCustomFields(db: Db, object: string | undefined): Promise<CustomFieldOutput[]> {
  const rows = await db
    .select(customFieldColumns)
    .from(custom_field)
    .where(object ? eq(custom_field.object, object) : undefined)
    .orderBy(asc(custom_field.object), asc(custom_field.custom_field_id));
  return rows.map(toCustomFieldOutput);
}

export async function getCustomField(db: Db, id: number): Promise<CustomFieldOutput> {
  const [row] = await db.select(customFieldColumns).from(custom_field).where(eq(custom_field.custom_field_id, id)).limit(1);
  if (!row) throw new DomainError('custom-field/not-found');
  return toCustomFieldOutput(row);
}
