/**
 * The Spanish messages of refusals that carry numbers (issue 15): the
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
