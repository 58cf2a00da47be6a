import type { Tx } from '../create-db.ts';
import * as s from '../schema/index.ts';
import * as content from './content.ts';
import { idAt, type SeedDays } from './seed-days.ts';

/** The studio's pages (the required ones first to accept), notices, its forms and the questions it asks customers. */
export async function seedContent(tx: Tx, { ago }: SeedDays) {
  const pages = await tx
    .insert(s.page)
    .values(content.pages.map((p, i) => ({ ...p, order: i + 1 })))
    .returning({ id: s.page.page_id, required: s.page.required });
  const requiredPageIds = pages.filter((p) => p.required).map((p) => p.id);
  await tx.insert(s.announcement).values(
    content.announcements.map((a, i) => ({ ...a, createdAt: ago(content.announcements.length - i, '09:00').toDate() })),
  );
  const forms = await tx
    .insert(s.form)
    .values(content.forms.map((f) => ({ name: f.name, object: f.object, placement: f.placement })))
    .returning({ id: s.form.form_id });
  await tx.insert(s.form_field).values(
    content.forms.flatMap((f, fi) =>
      f.fields.map((field, order) => ({
        form_id: idAt(forms, fi),
        order,
        step: field.step,
        key: field.key,
        name: field.key,
        label: field.label,
        type: field.type,
        required: field.required,
        options: 'options' in field ? field.options.map((o) => ({ ...o })) : null,
        precondition: 'precondition' in field ? { ...field.precondition } : null,
      })),
    ),
  );
  await tx.insert(s.custom_field).values([
    { object: 'customer', key: 'emergency_contact', label: 'Contacto de emergencia', type: 'text', required: false },
    {
      object: 'customer',
      key: 'health_notes',
      label: 'Lesiones o condiciones médicas que tu coach deba conocer',
      type: 'textarea',
      required: false,
      sensitive: true,
    },
  ]);

  return { requiredPageIds };
}
