/**
 * The Spanish messages of refusals that carry numbers: the
 * catalogue in errors.ts holds each code's general text, these say how much
 * or how many, so the person knows what to do next.
 */

/** Bytes as people read them: '20 MB', '1.5 MB', '300 KB'. */
export function formatBytes(bytes: number): string {
  if (bytes < 1024 * 1024) return `${Math.max(1, Math.round(bytes / 1024))} KB`;
  const mb = bytes / (1024 * 1024);
  return `${Number.isInteger(mb) ? mb : mb.toFixed(1)} MB`;
}

/** 413 'file/quota-exceeded': the customer's files would pass their quota. */
export function fileQuotaMessage(quotaBytes: number, usedBytes: number): string {
  return `Ya no tienes espacio para este archivo: tus archivos ocupan ${formatBytes(usedBytes)} de ${formatBytes(quotaBytes)}. Borra alguno de tus archivos e inténtalo de nuevo.`;
}

const plural = (n: number, one: string, many: string) => `${n} ${n === 1 ? one : many}`;

/** 409 'page/in-use': a required page, or one customers accepted. */
export function pageInUseMessage(required: boolean, acceptances: number): string {
  const why = [
    required ? 'es obligatoria' : null,
    acceptances > 0 ? `${plural(acceptances, 'cliente la aceptó', 'clientes la aceptaron')} y esas aceptaciones se conservan` : null,
  ]
    .filter(Boolean)
    .join(' y ');
  return `No puedes eliminar esta página: ${why}. Para dejar de mostrarla, quítale la marca de obligatoria y deja su contenido vacío.`;
}

/** 409 'class-category/in-use': class types (and videos) still in the category. */
export function classCategoryInUseMessage(classTypes: number, videos: number): string {
  const what = [classTypes > 0 ? plural(classTypes, 'tipo de clase', 'tipos de clase') : null, videos > 0 ? plural(videos, 'video', 'videos') : null]
    .filter(Boolean)
    .join(' y ');
  const them = classTypes + videos === 1 ? 'Asígnale' : 'Asígnales';
  return `No puedes eliminar esta categoría: ${what} la ${classTypes + videos === 1 ? 'usa' : 'usan'}. ${them} otra categoría y vuelve a intentarlo; no se cambió nada.`;
}

/**
 * What deleting a record will do, said before the admin confirms and applied
 * by the delete itself (decision 035): the delete service counts what relies
 * on the record in its own transaction and calls the same function, so the
 * dialog's words and the server's answer are one text.
 * - `delete`: nothing relies on it; it goes.
 * - `archive`: history relies on it; it is hidden and marked deleted, and the history keeps it.
 * - `refuse`: people rely on it now (a consent on record, class types, classes to come); nothing changes.
 */
export interface RemovalVerdict {
  outcome: 'delete' | 'archive' | 'refuse';
  message: string;
}

/** An information page: refused while it is required or any customer accepted it (decision 014). */
export function pageRemoval(required: boolean, acceptances: number): RemovalVerdict {
  if (required || acceptances > 0) return { outcome: 'refuse', message: pageInUseMessage(required, acceptances) };
  return { outcome: 'delete', message: 'Se eliminará la página. Esta acción no se puede deshacer.' };
}

/** A class category: refused while class types or live videos are in it (decision 014). */
export function classCategoryRemoval(classTypes: number, videos: number): RemovalVerdict {
  if (classTypes > 0 || videos > 0) return { outcome: 'refuse', message: classCategoryInUseMessage(classTypes, videos) };
  return { outcome: 'delete', message: 'Se eliminará la categoría; ningún tipo de clase ni video la usa.' };
}

/** 409 'instructor/in-use': a coach with classes still to come. */
export function instructorInUseMessage(upcomingClasses: number): string {
  return `No puedes eliminar a este coach: tiene ${plural(upcomingClasses, 'clase programada', 'clases programadas')}. Asígnalas a otro coach o cancélalas antes; para que deje de aparecer en el sitio, desmarca «Disponible».`;
}

/**
 * A coach: refused while they teach classes still to come (their customers
 * booked with them); otherwise hidden and marked deleted, so the classes they
 * gave keep their name.
 */
export function instructorRemoval(upcomingClasses: number, pastClasses: number): RemovalVerdict {
  if (upcomingClasses > 0) return { outcome: 'refuse', message: instructorInUseMessage(upcomingClasses) };
  if (pastClasses > 0) {
    return { outcome: 'archive', message: `Tiene ${plural(pastClasses, 'clase', 'clases')} en su historial: se ocultará y se marcará como eliminado para conservar ese historial.` };
  }
  return { outcome: 'delete', message: 'Se eliminará al coach; no tiene clases.' };
}
