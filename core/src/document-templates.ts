/**
 * The two documents every studio's customers accept at sign-up (decision 130), as a starting text the owner
 * completes: the terms and Mexico's privacy notice (LFPDPPP, in force since March 2025: the simplified notice, then
 * the integral one). What only the studio knows is marked «[Completa: …]»; Primeros pasos keeps the step pending
 * until none is left.
 */
export const templatePlaceholderMark = '[Completa:';

/** Whether a page's text still has a part of its template to complete. */
export const hasTemplatePlaceholder = (html: string | null | undefined): boolean => (html ?? '').includes(templatePlaceholderMark);

const escape = (text: string) => text.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;');

export interface DocumentTemplate {
  kind: 'terms' | 'privacy';
  slug: string;
  title: string;
  content: string;
}

export function documentTemplates(studioName: string): DocumentTemplate[] {
  const name = escape(studioName.trim() || 'El Estudio');
  return [
    {
      kind: 'terms',
      slug: 'terminos-y-condiciones',
      title: 'Términos y condiciones',
      content: `<h2>Términos y condiciones</h2>
<p>Estos términos rigen el uso del sitio y los servicios de ${name} («el Estudio»), con domicilio en [Completa: domicilio del estudio]. Al crear tu cuenta, comprar un paquete o reservar una clase los aceptas.</p>
<h3>1. Paquetes y vigencia</h3>
<p>Cada paquete indica sus clases y su vigencia, que corre desde la compra. Las clases no usadas dentro de la vigencia vencen y no son reembolsables.</p>
<h3>2. Reservaciones y cancelaciones</h3>
<p>Puedes cancelar una reservación hasta [Completa: horas de anticipación, por ejemplo 12] horas antes de la clase y se te devuelve la clase. Después de ese plazo, o si no asistes, la clase se descuenta.</p>
<h3>3. Puntualidad y conducta</h3>
<p>Te pedimos llegar a tiempo, respetar al personal y a las demás personas y usar ropa adecuada. El Estudio puede suspender cuentas por conductas inapropiadas.</p>
<h3>4. Salud</h3>
<p>Consulta a tu médico antes de iniciar cualquier actividad física e informa a tu coach de cualquier lesión o condición.</p>
<h3>5. Pagos</h3>
<p>Los precios están en pesos mexicanos (MXN) e incluyen IVA. Los pagos con tarjeta se procesan con proveedores certificados; el Estudio no guarda los datos completos de tu tarjeta.</p>
<h3>6. Cambios</h3>
<p>El Estudio puede cambiar horarios, coaches y estos términos; los cambios se publican en este sitio. Contacto: [Completa: correo o teléfono del estudio].</p>`,
    },
    {
      kind: 'privacy',
      slug: 'aviso-de-privacidad',
      title: 'Aviso de privacidad',
      content: `<h2>Aviso de privacidad simplificado</h2>
<p>${name}, con domicilio en [Completa: domicilio del estudio], es responsable del tratamiento de tus datos personales. Los usamos para crear tu cuenta, venderte paquetes, administrar tus reservaciones y enviarte los avisos necesarios de tu cuenta; con tu consentimiento aparte, también para recordatorios y promociones. Consulta el aviso integral abajo.</p>
<h2>Aviso de privacidad integral</h2>
<h3>Responsable</h3>
<p>${name} ([Completa: razón social y RFC]), con domicilio en [Completa: domicilio del estudio], conforme a la Ley Federal de Protección de Datos Personales en Posesión de los Particulares.</p>
<h3>Datos que tratamos</h3>
<p>Nombre, correo electrónico, teléfono, fecha de nacimiento, datos de facturación, historial de compras, reservaciones y asistencias. Datos de salud (lesiones o condiciones) solo si decides compartirlos, con tu consentimiento expreso, y solo los ve el personal que los necesita.</p>
<h3>Finalidades</h3>
<p>Necesarias: crear y administrar tu cuenta, vender y cobrar tus paquetes, reservar tus clases, emitir tus facturas y enviarte los mensajes de tu cuenta. Voluntarias (puedes negarte en Mi Información sin afectar el servicio): recordatorios de clases, avisos de créditos por vencer y promociones.</p>
<h3>Transferencias</h3>
<p>Compartimos datos solo con los proveedores que nos ayudan a prestar el servicio (pagos, facturación, envío de mensajes y alojamiento), obligados a protegerlos, y con las autoridades cuando la ley lo exige.</p>
<h3>Derechos ARCO y revocación</h3>
<p>Puedes descargar tus datos y pedir su acceso, rectificación, cancelación u oposición desde Mi Información, o escribiendo a [Completa: correo para datos personales]. Respondemos dentro de los 20 días hábiles que marca la ley. También puedes revocar tu consentimiento para los mensajes voluntarios en cualquier momento.</p>
<h3>Cambios a este aviso</h3>
<p>Publicaremos cualquier cambio en este sitio y te pediremos aceptarlo de nuevo al entrar.</p>`,
    },
  ];
}
