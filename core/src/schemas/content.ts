import { z } from '../zod.ts';
import { birthdate } from './dates.ts';
import { pageOutput } from './pages.ts';
import { email } from './auth.ts';
import { bodyId, id, isoDateTime, order } from './fields.ts';

/**
 * The API contract of the public site's content: information pages
 * (admin writes), announcements, instructors, class types, class categories,
 * locations (admin writes), forms, custom fields and files. Field names are
 * the spec's; timestamps travel as ISO strings. Create inputs drop unknown
 * keys, so a client that sends a non-numeric id ('nueva') on a create is fine.
 */

const optionalText = (max: number) => z.string().trim().max(max).nullish();
const emptyAsNull = (max: number) =>
  z
    .string()
    .trim()
    .max(max)
    .transform((text) => text || null)
    .nullish();

/** DELETE /api/<things>/{id} and GET /api/<things>/{id}. */
export const idInput = z.object({ id });
/** Every DELETE answers which record went away. */
export const removedOutput = z.object({ deleted: z.literal(true), id: z.number() });
export type RemovedOutput = z.infer<typeof removedOutput>;
/** GET /api/<things>/{id}/removal: what deleting it would do, and why, before the admin confirms (decision 035). */
export const removalOutput = z.object({ outcome: z.enum(['delete', 'archive', 'refuse']), message: z.string() });

// ---------- Files ----------

export const fileStorages = ['server', 's3'] as const;

export const fileOutput = z.object({
  file_id: z.number(),
  name: z.string(),
  /** MIME type detected from the content. */
  type: z.string(),
  /** Public URL: /files/<key> for local storage, the object URL for S3. */
  src: z.string(),
  storage: z.enum(fileStorages),
  size: z.number().nullable(),
  customer_id: z.number().nullable(),
  createdAt: isoDateTime,
  updatedAt: isoDateTime,
});
export type FileOutput = z.infer<typeof fileOutput>;

/** The file summary embedded in instructors, announcements and the customer. */
export const fileSummary = z.object({ file_id: z.number(), src: z.string(), name: z.string(), type: z.string() });
export type FileSummary = z.infer<typeof fileSummary>;

/** POST /api/files and /api/files/s3 (multipart, not tRPC) answer this. */
export const fileUploadOutput = z.object({ file_id: z.number(), file: fileOutput });
export type FileUploadOutput = z.infer<typeof fileUploadOutput>;

export const filesListOutput = z.object({ files: z.array(fileOutput) });
export const fileByIdOutput = z.object({ file: fileOutput });
/** PUT /api/files: only the display name changes; the bytes are immutable. */
export const fileUpdateInput = z.object({
  file_id: bodyId,
  name: z.string().trim().min(1, { error: 'Debes escribir un nombre.' }).max(200),
});

// ---------- Pages (admin) ----------

const slug = z
  .string()
  .trim()
  .toLowerCase()
  .min(1, { error: 'Debes escribir el slug de la página.' })
  .max(200)
  .regex(/^[a-z0-9]+(?:[-_][a-z0-9]+)*$/, { error: 'El slug solo puede tener letras minúsculas, números y guiones.' });

const pageFields = {
  slug,
  title: z.string().trim().min(1, { error: 'Debes escribir el título de la página.' }).max(200),
  /** HTML stored as given; the portal sanitizes before rendering. Null shows 'Sin contenido.'. */
  content: z.string().max(500_000).nullish(),
  required: z.boolean().optional(),
  order: order.optional(),
};

export const pageAdminOutput = pageOutput.extend({ order: z.number(), createdAt: isoDateTime, updatedAt: isoDateTime });
export type PageAdminOutput = z.infer<typeof pageAdminOutput>;

export const pageCreateInput = z.object(pageFields);
export const pageUpdateInput = z.object({
  page_id: bodyId,
  ...z.object(pageFields).partial().shape,
  /** Publish the text as the page's next version: customers who accepted an earlier one accept it again. */
  new_version: z.boolean().optional(),
});
export const pageSaveOutput = z.object({ page: pageAdminOutput });

// ---------- Announcements ----------

export const announcementOutput = z.object({
  announcement_id: z.number(),
  title: z.string(),
  content: z.string(),
  file_id: z.number().nullable(),
  file: fileSummary.nullable(),
  available: z.boolean(),
  createdAt: isoDateTime,
  updatedAt: isoDateTime,
});
export type AnnouncementOutput = z.infer<typeof announcementOutput>;

const announcementFields = {
  title: z.string().trim().min(1, { error: 'Debes escribir el título del aviso.' }).max(200),
  content: z.string().trim().min(1, { error: 'Debes escribir el contenido del aviso.' }).max(20_000),
  file_id: bodyId.nullish(),
  available: z.boolean().optional(),
};
export const announcementCreateInput = z.object(announcementFields);
export const announcementUpdateInput = z.object({ announcement_id: bodyId, ...z.object(announcementFields).partial().shape });
export const announcementsListOutput = z.object({ announcements: z.array(announcementOutput) });
export const announcementOneOutput = z.object({ announcement: announcementOutput });

// ---------- Instructors ----------

export const instructorOutput = z.object({
  instructor_id: z.number(),
  name: z.string(),
  last_name: z.string(),
  nick_name: z.string().nullable(),
  quote: z.string().nullable(),
  short_bio: z.string().nullable(),
  instagram: z.string().nullable(),
  /** AAAA-MM-DD for staff and admins; for everyone else day and month only, '--MM-DD' (yearlessBirthdate). */
  birthdate: z.string().nullable(),
  music_type: z.string().nullable(),
  file_id: z.number().nullable(),
  file: fileSummary.nullable(),
  show_on_home: z.boolean(),
  available: z.boolean(),
  order: z.number(),
  /** The e-mail of the account the coach signs in with (decision 045), null when none; only staff and admins read it. */
  account_email: z.string().nullable().optional(),
});
export type InstructorOutput = z.infer<typeof instructorOutput>;

const instructorFields = {
  name: z.string().trim().min(1, { error: 'Debes escribir el nombre.' }).max(100),
  last_name: z.string().trim().max(100).optional(),
  nick_name: optionalText(100),
  quote: optionalText(500),
  short_bio: optionalText(5000),
  instagram: optionalText(100),
  birthdate: birthdate.nullish(),
  music_type: optionalText(200),
  file_id: bodyId.nullish(),
  show_on_home: z.boolean().optional(),
  available: z.boolean().optional(),
  order: order.optional(),
  /** Cuenta del coach (decision 045): the e-mail of the account that signs in as this coach; null unlinks it. */
  customer_email: email.nullish(),
};
export const instructorCreateInput = z.object(instructorFields);
/** PUT /api/instructors/{id}: the id travels in the path. */
export const instructorUpdateInput = z.object({ id, ...z.object(instructorFields).partial().shape });
export const instructorsListOutput = z.object({ instructors: z.array(instructorOutput) });
export const instructorOneOutput = z.object({ instructor: instructorOutput });

// ---------- Class types ----------

export const classTypeOutput = z.object({
  class_type_id: z.number(),
  name: z.string(),
  description: z.string().nullable(),
  icon: z.string().nullable(),
  image: z.string().nullable(),
  spot_map: z.string().nullable(),
  /** Its colour on a schedule, '#RRGGBB'. */
  color: z.string(),
  class_category_id: z.number().nullable(),
  available: z.boolean(),
  order: z.number(),
  /** For whom ('Todos los niveles', 'Intermedio'); null: not said. */
  level: z.string().nullable(),
  /** What to bring ('Calcetas antiderrapantes y agua.'); null: not said. */
  what_to_bring: z.string().nullable(),
});
export type ClassTypeOutput = z.infer<typeof classTypeOutput>;

/** Seats per row, back row first ('4,6,6'): a class type's and a room's seat map; empty is none. */
const spotMapField = z
  .string()
  .trim()
  .regex(/^[0-9]+(,[0-9]+)*$/, { error: 'El mapa de lugares debe ser una lista de números separados por comas, p. ej. 4,6,6.' })
  .nullish()
  .or(z.literal('').transform(() => null));

const classTypeFields = {
  name: z.string().trim().min(1, { error: 'Debes escribir el nombre del tipo de clase.' }).max(100),
  description: optionalText(5000),
  icon: optionalText(1000),
  image: optionalText(1000),
  /** Seats per row, back row first ('4,6,6'). */
  spot_map: spotMapField,
  /** Its colour on a schedule. */
  color: z
    .string()
    .trim()
    .regex(/^#[0-9a-fA-F]{6}$/, { error: 'El color debe escribirse en formato #RRGGBB, por ejemplo #c92a2a.' })
    .optional(),
  class_category_id: bodyId.nullish(),
  available: z.boolean().optional(),
  order: order.optional(),
  // An empty text is 'not said' (null), so a screen leaves the line out.
  level: emptyAsNull(100),
  what_to_bring: emptyAsNull(500),
};
export const classTypeCreateInput = z.object(classTypeFields);
export const classTypeUpdateInput = z.object({ class_type_id: bodyId, ...z.object(classTypeFields).partial().shape });
export const classTypesListOutput = z.object({ class_types: z.array(classTypeOutput) });
export const classTypeOneOutput = z.object({ class_type: classTypeOutput });

// ---------- Class categories ----------

export const classCategoryOutput = z.object({
  class_category_id: z.number(),
  name: z.string(),
  handle: z.string(),
  description: z.string().nullable(),
  available: z.boolean(),
});
export type ClassCategoryOutput = z.infer<typeof classCategoryOutput>;

const classCategoryFields = {
  name: z.string().trim().min(1, { error: 'Debes escribir el nombre de la categoría.' }).max(100),
  /** Derived from the name when absent. */
  handle: z
    .string()
    .trim()
    .toLowerCase()
    .regex(/^[a-z0-9]+(?:-[a-z0-9]+)*$/, { error: 'El identificador solo puede tener letras minúsculas, números y guiones.' })
    .max(100)
    .optional(),
  description: optionalText(5000),
  /** Defaults to true on create. */
  available: z.boolean().optional(),
};
export const classCategoryCreateInput = z.object(classCategoryFields);
export const classCategoryUpdateInput = z.object({ class_category_id: bodyId, ...z.object(classCategoryFields).partial().shape });
export const classCategoriesListOutput = z.object({ class_categories: z.array(classCategoryOutput) });
export const classCategoryOneOutput = z.object({ class_category: classCategoryOutput });

// ---------- Locations (admin) ----------

export const locationOutput = z.object({
  location_id: z.number(),
  name: z.string(),
  description: z.string().nullable(),
  address: z.string(),
  city: z.string().nullable(),
  phone: z.string().nullable(),
  maps_url: z.string().nullable(),
  available: z.boolean(),
  order: z.number(),
});
export type LocationOutput = z.infer<typeof locationOutput>;

const locationFields = {
  name: z.string().trim().min(1, { error: 'Debes escribir el nombre de la sucursal.' }).max(200),
  description: optionalText(2000),
  address: z.string().trim().min(1, { error: 'Debes escribir la dirección de la sucursal.' }).max(500),
  city: optionalText(200),
  phone: optionalText(40),
  maps_url: z.url({ protocol: /^https?$/, error: 'La liga del mapa no es válida.' }).nullish().or(z.literal('').transform(() => null)),
  available: z.boolean().optional(),
  order: order.optional(),
};
export const locationCreateInput = z.object(locationFields);
export const locationUpdateInput = z.object({ location_id: bodyId, ...z.object(locationFields).partial().shape });
export const locationOneOutput = z.object({ location: locationOutput });

// ---------- Rooms of a location (admin, decision 140) ----------

export const roomOutput = z.object({
  room_id: z.number(),
  location_id: z.number(),
  name: z.string(),
  /** The most people the room holds; null: not said (a class's capacity is then its own). */
  capacity: z.number().nullable(),
  /** Seats per row, back row first; a class in the room takes this map over its type's. */
  spot_map: z.string().nullable(),
});
export type RoomOutput = z.infer<typeof roomOutput>;

const roomFields = {
  name: z.string().trim().min(1, { error: 'Debes escribir el nombre del salón.' }).max(100, { error: 'El nombre del salón puede tener hasta 100 caracteres.' }),
  capacity: z
    .number({ error: 'El cupo del salón debe ser un número.' })
    .int({ error: 'El cupo del salón debe ser un número entero.' })
    .min(1, { error: 'El cupo del salón debe ser de al menos 1 lugar.' })
    .max(500, { error: 'El cupo del salón no puede ser mayor a 500 lugares.' })
    .nullish(),
  spot_map: spotMapField,
};
/** GET /api/rooms?location_id=: a location's live rooms. */
export const roomsInput = z.object({ location_id: id });
export const roomCreateInput = z.object({ location_id: bodyId, ...roomFields });
export type RoomCreateInput = z.infer<typeof roomCreateInput>;
export const roomUpdateInput = z.object({ room_id: bodyId, ...z.object(roomFields).partial().shape });
export type RoomUpdateInput = z.infer<typeof roomUpdateInput>;
export const roomIdInput = z.object({ room_id: id });
export const roomsOutput = z.object({ rooms: z.array(roomOutput) });
export const roomOneOutput = z.object({ room: roomOutput });

// ---------- Forms and custom fields ----------

export const formFieldTypes = [
  'file',
  'date',
  'text',
  'time',
  'image',
  'phone',
  'select',
  'number',
  'boolean',
  'textarea',
  'datetime-local',
  'creatable-select',
] as const;
export type FormFieldType = (typeof formFieldTypes)[number];

export const fieldOption = z.object({ label: z.string().max(200), value: z.string().max(200) });
export const fieldPrecondition = z.object({ key: z.string().max(100), value: z.unknown() }).nullable();

export const formFieldOutput = z.object({
  form_field_id: z.number(),
  form_id: z.number(),
  order: z.number(),
  step: z.number(),
  key: z.string(),
  name: z.string(),
  label: z.string(),
  type: z.enum(formFieldTypes),
  required: z.boolean(),
  options: z.array(fieldOption).nullable(),
  precondition: fieldPrecondition,
  value: z.string().nullable(),
});
export type FormFieldOutput = z.infer<typeof formFieldOutput>;

/** Where a customer form is asked (decision 087). */
export const formPlacement = z.enum(['signup', 'booking', 'profile'], { error: 'El lugar del formulario debe ser signup, booking o profile.' });

export const formOutput = z.object({
  form_id: z.number(),
  name: z.string(),
  object: z.string().nullable(),
  /** A customer form's moment: 'signup' (the sign-up form), 'booking' (once before the first booking), 'profile' (Mi Información). */
  placement: formPlacement,
  /** Ordered by step, then order. */
  form_fields: z.array(formFieldOutput),
});
export type FormOutput = z.infer<typeof formOutput>;

const fieldKey = z
  .string()
  .trim()
  .min(1, { error: 'Debes escribir la clave del campo.' })
  .max(100)
  .regex(/^[A-Za-z_][A-Za-z0-9_.]*$/, { error: 'La clave solo puede tener letras, números, puntos y guiones bajos.' });

export const formFieldInput = z.object({
  order: order.default(0),
  step: order.default(0),
  key: fieldKey,
  name: z.string().trim().max(200).optional(),
  label: z.string().trim().min(1, { error: 'Debes escribir la etiqueta del campo.' }).max(200),
  type: z.enum(formFieldTypes, { error: 'El tipo de campo no es válido.' }),
  required: z.boolean().default(false),
  options: z.array(fieldOption).max(200).nullish(),
  precondition: fieldPrecondition.optional(),
  value: z.string().max(2000).nullish(),
});

const formFields = {
  name: z.string().trim().min(1, { error: 'Debes escribir el nombre del formulario.' }).max(200),
  object: optionalText(100),
  placement: formPlacement.optional(),
  /** Replaces the form's fields as a whole; keys are unique within a form. */
  form_fields: z
    .array(formFieldInput)
    .max(200)
    .refine((fields) => new Set(fields.map((f) => f.key)).size === fields.length, { error: 'Hay claves de campo repetidas.' }),
};
export const formCreateInput = z.object({ ...formFields, form_fields: formFields.form_fields.default([]) });
export const formUpdateInput = z.object({ form_id: bodyId, ...z.object(formFields).partial().shape });
export const formsListOutput = z.object({ forms: z.array(formOutput) });
export const formOneOutput = z.object({ form: formOutput });

export const customFieldOutput = z.object({
  custom_field_id: z.number(),
  object: z.string(),
  key: z.string(),
  label: z.string().nullable(),
  type: z.enum(formFieldTypes),
  required: z.boolean(),
  options: z.array(fieldOption).nullable(),
  /** Sensitive personal data (health): asked with express consent, read only by staff and the class's coach. */
  sensitive: z.boolean(),
});
export type CustomFieldOutput = z.infer<typeof customFieldOutput>;

export const customFieldsListInput = z.object({ object: z.string().trim().max(100).optional() });
export const customFieldsListOutput = z.object({ custom_fields: z.array(customFieldOutput) });
export const customFieldOneOutput = z.object({ custom_field: customFieldOutput });
