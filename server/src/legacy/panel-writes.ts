import { classFromPanel, fromPanel, type Json } from './shapes.ts';

/**
 * What the previous panel's forms send, in the spec's terms (decision 094).
 * Its forms post back the whole record they read, so every save carries the
 * read-only fields of our own answers: those, named here per record, are
 * accepted and ignored; any other field the spec's write does not take is
 * still refused by name (decision 032). Its own names are mapped, and where
 * it sends both its name and the echo of ours, its name wins: its forms
 * edit only their own fields. Pure: the routes in legacy-admin.ts apply them.
 */

const isObject = (value: unknown): value is Json => !!value && typeof value === 'object' && !Array.isArray(value);

/** The read-only fields of our answers, by record, that the panel sends back with a save. */
export const panelEchoes = {
  /** GET /customer/admin/{id}: the profile's own read-only fields and what the panel's view nests in it. */
  customer: [
    'uid',
    'has_unlimited',
    'unlimited_membership_expiration',
    'unlimited_max_no_shows_for_penalty',
    'createdAt',
    'updatedAt',
    'address',
    'file',
    'purchases',
    'invoices',
    'available_classes',
    'available_circuits',
    'class_reservations',
    'instagram_account',
    // What still blocks her booking (decision 087): computed, never written.
    'pending_fields',
  ],
  /** GET /single_class/single/{id}: the class's places, its nested records and the caller's parts. */
  singleClass: [
    'cancelledAt',
    'deletedAt',
    'class_id',
    'reservation_count',
    'reservations',
    'taken_spots',
    'class_type',
    'location',
    'room',
    'spot_map',
    'class_instructors',
    'tags',
    'class_reservations',
    'waitlist_id',
    'package_access',
    'class_date_utc',
    // A special class's event (its package's title): the package is what the form edits.
    'event_name',
    // The weekly series it was made by: the panel edits one class at a time.
    'class_series_id',
  ],
  /** GET /class_packages/admin/{id}: the package's bookkeeping. */
  classPackage: ['package_id', 'receipt_file', 'downloadable', 'file_url', 'deletedAt', 'stripe_product_id', 'stripe_price_id', 'purchases', 'createdAt', 'updatedAt'],
  /** GET /discounts/admin/all: how many times the code was used, and its bookkeeping. */
  discount: ['uses', 'createdAt', 'updatedAt'],
  /** GET /instructors/{id}: the photo's summary, the linked account as read (user_id is what the panel writes). */
  instructor: ['file', 'account_email', 'user'],
} as const;

/** The body without the echoed fields `keys` names. */
export function withoutEchoes(body: unknown, keys: readonly string[]): unknown {
  if (!isObject(body)) return body;
  return Object.fromEntries(Object.entries(body).filter(([key]) => !keys.includes(key)));
}

/** The panel's own name over ours: its form edited `panelName`; `ours` is the value we answered, sent back. */
function panelNameWins(body: Json, panelName: string, ours: string): Json {
  if (!(panelName in body)) return body;
  const { [panelName]: value, [ours]: _echo, ...rest } = body;
  return { ...rest, [ours]: value };
}

/** Keys the panel always sends, empty when unused: absent when empty, kept (and refused by name) when set. */
export function withoutEmpty(body: unknown, keys: readonly string[]): unknown {
  if (!isObject(body)) return body;
  const out = { ...body };
  for (const key of keys) if (out[key] === null || out[key] === '') delete out[key];
  return out;
}

/** An input the panel sends empty ('') to mean "none": null. */
function emptyAsNull(body: Json, keys: readonly string[]): Json {
  const out = { ...body };
  for (const key of keys) if (out[key] === '') out[key] = null;
  return out;
}

/** A file the panel's form holds, sent as JSON: a File serializes as `{}`; its upload's id travels as idAdjunto. */
function withoutFileObject(body: Json): Json {
  const { file, ...rest } = body;
  return isObject(file) && Object.keys(file).length === 0 ? rest : body;
}

/** The panel's class save (Agregar Clase, the schedule's edit): its echoes out, its one coach kept only when it is a change. */
export function classWriteFromPanel(body: unknown): unknown {
  if (!isObject(body)) return body;
  // The panel's class form cannot change coaches (it has no working picker): it sends the first coach it read,
  // so a class with two keeps both unless the coach sent is none of them.
  const current = Array.isArray(body.class_instructors) ? body.class_instructors.map((i) => (isObject(i) ? i.instructor_id : undefined)) : [];
  let out: Json = withoutEchoes(body, panelEchoes.singleClass) as Json;
  const coach = out.instructor_id;
  if (coach === '' || coach === null || (coach !== undefined && current.some((id) => String(id) === String(coach)))) {
    const { instructor_id: _same, ...rest } = out;
    out = rest;
  }
  // 'Evento Especial': the package whose buyers may book it, or the option with no package ('No es evento especial').
  if ('package_id' in out) {
    const { package_id: pkg, ...rest } = out;
    out = { ...rest, class_package_id: typeof pkg === 'string' && !/^\d+$/.test(pkg.trim()) ? null : pkg };
  }
  return classFromPanel(out);
}

/** The panel's package form: its name of the people limit over the echo of ours, empty inputs as none. */
export function packageFromPanel(body: unknown): unknown {
  if (!isObject(body)) return body;
  // Its form edits customer_limit (our people_limit, sent back beside it) and our own expiration_days; package_days is
  // only in its new package's defaults (null), an alias of expiration_days when set.
  let out = withoutEmpty(withoutEchoes(body, panelEchoes.classPackage), ['package_days']) as Json;
  out = panelNameWins(out, 'customer_limit', 'people_limit');
  out = emptyAsNull(out, ['sale_price', 'people_limit', 'limit_per_customer', 'expiration_days', 'free_trial_length', 'free_trial_period', 'subscription_interval']);
  // Each class type of the package as read carries its class type inside; the write names it by id.
  if (Array.isArray(out.class_package_types)) {
    out = { ...out, class_package_types: out.class_package_types.map((t) => (isObject(t) ? withoutEchoes(t, ['class_type']) : t)) };
  }
  const mapped = fromPanel(out, {
    numbers: ['class_amount', 'expiration_days', 'package_days', 'limit_per_customer', 'people_limit', 'subscription_interval', 'free_trial_length', 'order'],
    aliases: { package_days: 'expiration_days' },
  });
  return withoutEmpty(mapped, ['first_check']);
}

/** The panel's customer form: the profile's echoes out; `instagram` and the rest are the spec's own names. */
export function customerFromPanel(body: unknown): unknown {
  if (!isObject(body)) return body;
  return withoutEchoes(body, panelEchoes.customer);
}

/** The panel's coach form: first_name and birthday are its names of name and birthdate; idAdjunto is the photo's file. */
export function coachFromPanel(body: unknown): unknown {
  if (!isObject(body)) return body;
  let out = withoutFileObject(withoutEchoes(body, panelEchoes.instructor) as Json);
  out = panelNameWins(out, 'idAdjunto', 'file_id');
  const mapped = fromPanel(out, { aliases: { first_name: 'name', birthday: 'birthdate' } });
  return withoutEmpty(mapped, ['file', 'birthdate', 'nick_name']);
}

/** The panel's class type form: `mapa` is its name of the seat map; an empty colour is none. */
export function classTypeFromPanel(body: unknown): unknown {
  if (!isObject(body)) return body;
  const out = panelNameWins(body, 'mapa', 'spot_map');
  return withoutEmpty(fromPanel(emptyAsNull(out, ['spot_map'])), ['color']);
}

/** The panel's category form: the handle it leaves empty is derived from the name; a picture's File serializes as `{}`. */
export function categoryFromPanel(body: unknown): unknown {
  if (!isObject(body)) return body;
  // «¿Es gratis?» read as false comes back as false: an echo. Turned on, it stays, and is refused by name.
  const { is_free: free, ...rest } = body;
  return withoutEmpty(fromPanel(withoutFileObject(free === false ? rest : body)), ['handle']);
}

/**
 * The panel's discount form, before its dates are the studio's days: the
 * echoes out, its names over ours (isPercent, limit_per_customer), empty
 * inputs as none, and its title, a field of its own the form never shows,
 * absent when empty.
 */
export function discountFromPanelForm(body: unknown): unknown {
  if (!isObject(body)) return body;
  let out = withoutEchoes(body, panelEchoes.discount) as Json;
  out = panelNameWins(out, 'isPercent', 'is_percent');
  out = panelNameWins(out, 'limit_per_customer', 'max_uses_per_customer');
  out = emptyAsNull(out, ['max_uses_per_customer', 'max_uses', 'start_date', 'expiration_date']);
  return withoutEmpty(out, ['title']);
}
