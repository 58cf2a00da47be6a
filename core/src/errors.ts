/**
 * Typed domain errors. Services throw `new DomainError(code)`; the server turns
 * the code into an HTTP status and the Spanish message below. Adding a code
 * without a message fails the type check.
 */
export const domainErrors = {
  // Validation and generic transport errors
  'validation': { status: 400, message: 'Revisa los campos faltantes o inválidos.' },
  'not-found': { status: 404, message: 'No encontramos lo que buscas.' },
  'route-not-found': { status: 404, message: 'La ruta solicitada no existe.' },
  'unauthenticated': { status: 401, message: 'Debes iniciar sesión para continuar.' },
  'forbidden': { status: 403, message: 'No tienes permiso para realizar esta acción.' },
  'rate-limited': { status: 429, message: 'Demasiados intentos. Espera un momento e inténtalo de nuevo.' },
  'internal': { status: 500, message: 'Hubo un error inesperado. Inténtalo más tarde.' },
  // The database connection was lost mid-request (PostgreSQL rolls back a transaction cut before its commit).
  'db/unavailable': { status: 503, message: 'Se perdió la conexión con la base de datos. Inténtalo de nuevo en un momento.' },
  'invalid-json': { status: 400, message: 'El cuerpo de la solicitud no es un JSON válido.' },
  'unsupported-media-type': { status: 415, message: 'El cuerpo de la solicitud debe enviarse como application/json.' },
  'payload-too-large': { status: 413, message: 'La solicitud es demasiado grande.' },
  'method-not-allowed': { status: 405, message: 'El método no está permitido en esta ruta.' },
  // Limits count work, not requests (decision 012)
  'batch-too-large': { status: 400, message: 'La solicitud agrupa demasiadas operaciones. Envíalas en varias solicitudes.' },
  'busy': { status: 503, message: 'Hay muchas solicitudes en este momento. Inténtalo de nuevo en unos segundos.' },
  // One address holds more open connections than any studio's network needs (a slow-body attack): decision 076.
  'too-many-connections': { status: 429, message: 'Hay demasiadas conexiones abiertas desde tu red. Espera un momento e inténtalo de nuevo.' },
  // Decision 032: another site's page asks to call the API (a preflight) from an origin that is not in CORS_ORIGINS.
  'cors/origin-not-allowed': { status: 403, message: 'Este origen no tiene permiso para llamar a la API del estudio. Agrégalo a CORS_ORIGINS en la configuración del servidor.' },
  // A write carrying a field the operation does not take: refused whole, never stored without it. The message names the field.
  'validation/unknown-field': { status: 400, message: 'La solicitud trae un campo que esta operación no conoce.' },

  // Identity: the codes are Firebase's, so the portal handles both providers alike
  'auth/user-not-found': { status: 400, message: 'Lo sentimos. No encontramos una cuenta con ese correo. ¡Regístrate!' },
  'auth/wrong-password': { status: 400, message: 'La contraseña es incorrecta. Por favor, intenta de nuevo' },
  'auth/email-already-in-use': { status: 400, message: 'Ya tienes una cuenta con nosotros. Por favor, inicia sesión.' },
  'auth/weak-password': { status: 400, message: 'La contraseña no cumple con los requisitos de seguridad.' },
  'auth/invalid-email': { status: 400, message: 'El correo electrónico no es válido.' },
  'auth/id-token-expired': { status: 401, message: 'Tu sesión expiró. Por favor, inicia sesión de nuevo.' },
  'auth/id-token-revoked': { status: 401, message: 'Tu sesión fue cerrada. Por favor, inicia sesión de nuevo.' },
  'auth/invalid-id-token': { status: 401, message: 'Tu sesión no es válida. Por favor, inicia sesión de nuevo.' },
  'auth/invalid-refresh-token': { status: 401, message: 'Tu sesión no es válida. Por favor, inicia sesión de nuevo.' },
  'auth/too-many-requests': { status: 429, message: 'Demasiados intentos de inicio de sesión. Espera unos minutos e inténtalo de nuevo.' },
  'auth/passwords-mismatch': { status: 400, message: 'Las contraseñas no coinciden' },
  'auth/operation-not-allowed': { status: 400, message: 'Con el proveedor de identidad configurado esta acción se realiza desde la aplicación, no desde esta ruta.' },
  'auth/invalid-action-code': { status: 400, message: 'El enlace para restablecer tu contraseña no es válido o ya expiró. Solicita uno nuevo.' },
  'auth/user-disabled': { status: 403, message: 'Esta cuenta ha sido desactivada. Comunícate con el estudio.' },
  // Sign-up with the e-mail of a customer the studio registered at the desk (decision 017)
  'auth/customer-claim-sent': {
    status: 409,
    message: 'El estudio ya te registró con este correo. Te enviamos un correo con un enlace para crear tu contraseña; ábrelo para entrar a tu cuenta.',
  },
  // The same, while the studio cannot send e-mail yet: the link waits in the outbox, and the counter can set her password (decision 079)
  'auth/customer-claim-waiting': {
    status: 409,
    message: 'El estudio ya te registró con este correo, pero todavía no puede enviar correos. Pide en recepción que te ayuden a crear tu contraseña.',
  },

  // Customer
  'customer/already-exists': { status: 409, message: 'Ya tienes una cuenta con nosotros. Por favor, inicia sesión.' },
  'customer/phone-taken': { status: 409, message: 'Ya existe una cuenta con ese número de teléfono' },
  'customer/phone-format': { status: 400, message: 'El formato del teléfono no es correcto.' },
  'customer/not-found': { status: 404, message: 'No encontramos tu cuenta de cliente.' },
  // A stop link of an optional message whose code is not (or no longer) any customer's
  'messages/stop-link-invalid': { status: 404, message: 'Este enlace para dejar de recibir mensajes no es válido o ya cambió. Puedes elegir tus mensajes en Mi Información.' },
  // Decision 087: a sensitive answer (health) sent without the customer's express consent to store it.
  'customer/sensitive-consent-required': { status: 400, message: 'Para guardar esta información de salud necesitamos tu consentimiento expreso: marca la casilla.' },
  'customer/terms-not-accepted': { status: 400, message: 'Debes aceptar los términos y condiciones antes de continuar.' },
  // A customer registered at the desk (POST /api/customer by staff); the texts address staff
  'customer/email-taken': { status: 409, message: 'Ya existe una cuenta con ese correo electrónico.' },
  'customer/documents-not-accepted': { status: 400, message: 'El cliente debe aceptar los documentos obligatorios del estudio.' },

  // Pages
  'page/not-found': { status: 404, message: 'No encontramos esta página.' },
  'page/new-version': { status: 409, message: 'Este documento acaba de cambiar. Lee la versión nueva antes de aceptarla.' },

  // Schedule and booking (the 412/409 messages are shown to the customer as they are)
  'class/not-found': { status: 404, message: 'Lo sentimos, no encontramos esta clase.' },
  'booking/class-cancelled': { status: 412, message: 'Lo sentimos, esta clase fue cancelada.' },
  'booking/class-started': { status: 412, message: 'Lo sentimos, esta clase ya comenzó o ya terminó.' },
  'booking/outside-window': { status: 412, message: 'Lo sentimos, ya no es posible reservar esta clase.' },
  'booking/not-open-yet': { status: 412, message: 'Las reservaciones para esta clase todavía no abren.' },
  'booking/class-full': { status: 412, message: 'Lo sentimos, esta clase ya está llena.' },
  'booking/package-only': { status: 412, message: 'Esta clase es exclusiva para quienes compraron su paquete especial.' },
  'booking/no-credits': { status: 412, message: 'Lo sentimos. Has agotado todos tus créditos para reservar Clases Presenciales...' },
  'booking/penalized': { status: 412, message: 'Lo sentimos, no puedes reservar clases porque cuentas con una penalización.' },
  'booking/already-booked': { status: 409, message: 'Ya tienes una reservación en esta clase.' },
  'booking/spot-taken': { status: 409, message: 'Lo sentimos, ese lugar ya fue reservado. Elige otro lugar.' },
  'booking/spot-invalid': { status: 400, message: 'Ese lugar no existe en esta clase.' },
  'booking/guest-not-allowed': { status: 412, message: 'Esta clase no permite invitados.' },
  'booking/guest-name': { status: 400, message: 'Debes ingresar un nombre para tu invitado' },
  'booking/guest-spot-required': { status: 400, message: 'Elige también un lugar para tu invitado.' },
  'booking/guest-spot-invalid': { status: 400, message: 'Tu invitado necesita un lugar distinto al tuyo.' },
  'booking/guest-no-credits': { status: 412, message: 'Tu invitado usa un crédito más y no tienes otro crédito disponible para esta clase.' },
  'reservation/not-found': { status: 404, message: 'No encontramos esta reservación.' },
  'reservation/already-cancelled': { status: 409, message: 'Esta reservación ya fue cancelada.' },
  'reservation/cancel-disabled': { status: 412, message: 'Tus clases son transferibles y no son cancelables' },
  'reservation/cancel-too-late': { status: 412, message: 'Ya no es posible cancelar esta clase.' },
  'reservation/cancel-limit': { status: 412, message: 'Ya alcanzaste el número máximo de cancelaciones para este crédito.' },
  'rating/disabled': { status: 412, message: 'Las calificaciones de clases no están disponibles.' },
  'rating/not-attended': { status: 412, message: 'Solo puedes calificar clases a las que asististe.' },
  'rating/already-rated': { status: 409, message: 'Ya calificaste esta clase.' },
  'waitlist/disabled': { status: 412, message: 'La lista de espera no está disponible.' },
  'waitlist/class-not-full': { status: 412, message: 'Solo puedes anotarte en la lista de espera de una clase llena.' },
  // Decision 088: the choice to be booked automatically exists where the studio books from its waitlists.
  'waitlist/auto-book-off': { status: 412, message: 'Este estudio no reserva automáticamente desde la lista de espera: te avisaremos cuando se libere un lugar.' },
  'waitlist/already-joined': { status: 409, message: 'Ya estás en la lista de espera de esta clase.' },
  'waitlist/already-booked': { status: 409, message: 'Ya tienes una reservación en esta clase.' },
  'waitlist/not-found': { status: 404, message: 'No encontramos esta lista de espera.' },
  'standing/not-found': { status: 404, message: 'No encontramos esta reservación semanal.' },
  'standing/special-class': { status: 412, message: 'Las clases especiales no se repiten: resérvala como una clase sola.' },
  'standing/class-over': { status: 412, message: 'Esta clase ya pasó o fue cancelada; elige una próxima clase para reservarla cada semana.' },
  'credit/not-found': { status: 404, message: 'No encontramos estos créditos.' },
  'penalty/not-found': { status: 404, message: 'No encontramos esta penalización.' },
  'penalty/not-active': { status: 409, message: 'Esta penalización ya no está activa: terminó o alguien ya la quitó.' },
  'credit/invalid-amount': { status: 400, message: 'Indica cuántas clases otorgar: un número mayor a cero, o -1 para ilimitadas.' },
  'credit/expiration-past': { status: 400, message: 'La fecha de expiración de los créditos debe ser futura.' },
  'class-type/not-found': { status: 404, message: 'No encontramos este tipo de clase.' },

  // Shop and checkout; 412/409 texts are the spec's purchase error table
  'package/not-found': { status: 404, message: 'Lo sentimos, no encontramos el paquete que quieres comprar.' },
  'package/people-limit': { status: 412, message: 'Lo sentimos, se ha alcanzado el límite de personas para este paquete.' },
  'package/customer-limit': { status: 409, message: 'Lo sentimos, ya has alcanzado el límite de compras de este paquete.' },
  'package/signup-fee-required': { status: 412, message: 'Antes de comprar este paquete debes pagar tu inscripción.' },
  'package/not-free': { status: 400, message: 'No has seleccionado un método de pago.' },
  'discount/invalid': { status: 404, message: 'Lo sentimos, ese descuento no es válido.' },
  'discount/not-applicable': { status: 412, message: 'Lo sentimos, ese descuento no es válido.' },
  'discount/exhausted': { status: 412, message: 'Lo sentimos, ya has agotado este descuento.' },
  'checkout/disabled': { status: 412, message: 'Por el momento no es posible realizar compras en línea.' },
  'checkout/no-payment-method': { status: 400, message: 'No has seleccionado un método de pago.' },
  'checkout/method-unavailable': { status: 400, message: 'Esta forma de pago no está disponible.' },
  // The card was charged but the purchase could not be recorded (database lost): the payment webhook completes it.
  'payment/charged-pending': { status: 503, message: 'Tu pago se realizó, pero aún no pudimos registrarlo. Aparecerá en Mis Compras en unos minutos; no es necesario pagar de nuevo.' },
  'payment/card-declined': { status: 402, message: 'Lo sentimos. Tu tarjeta ha sido rechazada por tu banco. Comunícate con tu banco para saber más.' },
  'payment/intent-not-found': { status: 404, message: 'No encontramos este pago. Inicia la compra de nuevo.' },
  'payment/already-processed': { status: 409, message: 'Este pago ya fue procesado.' },
  'payment/provider-error': { status: 502, message: 'Hubo un error al procesar tu compra. Inténtalo más tarde.' },
  'payment/not-approved': { status: 412, message: 'El pago aún no ha sido aprobado. Inténtalo de nuevo.' },
  'purchase/not-found': { status: 404, message: 'No encontramos esta compra.' },
  'purchase/cancel-reason': { status: 400, message: 'Debes indicar un motivo de cancelación.' },
  'purchase/not-cancellable': { status: 409, message: 'Esta compra ya fue cancelada o no puede cancelarse.' },
  'purchase/not-pending': { status: 409, message: 'Esta compra ya fue pagada o cancelada.' },
  // A purchase ever paid keeps its caps' units for good; an admin gives one back with a reason.
  'purchase/limit-still-held': { status: 409, message: 'Esta compra sigue vigente: cancélala o elimínala antes de liberar su uso del límite.' },
  'purchase/ended-before-payment': { status: 409, message: 'Esta compra se canceló antes de que llegara el pago: te devolvemos el cargo.' },
  'purchase/limit-not-taken': { status: 409, message: 'Esta compra no cuenta para ningún límite: nunca se pagó o su uso ya se liberó.' },
  'payment-source/not-found': { status: 404, message: 'No encontramos este método de pago.' },
  'payment-method/not-found': { status: 404, message: 'No encontramos esta forma de pago.' },
  'payment-method/in-use': { status: 409, message: 'No se puede eliminar esta forma de pago porque tiene compras registradas. Márcala como no disponible.' },
  'payment-source/disabled': { status: 412, message: 'Guardar tarjetas no está disponible.' },
  'webhook/invalid-signature': { status: 400, message: 'La firma del webhook no es válida.' },

  // Content, profile, forms and files
  'page/slug-taken': { status: 409, message: 'Ya existe una página con ese slug.' },
  'announcement/not-found': { status: 404, message: 'No encontramos este aviso.' },
  'instructor/not-found': { status: 404, message: 'No encontramos a este coach.' },
  'instructor/account-not-found': { status: 404, message: 'No encontramos una cuenta con ese correo. La persona debe registrarse antes de vincularla a un coach.' },
  'instructor/account-taken': { status: 409, message: 'Esa cuenta ya está vinculada a otro coach.' },
  'coach/class-not-found': { status: 404, message: 'No encontramos esta clase entre las tuyas.' },
  'instructor/in-use': { status: 409, message: 'No puedes eliminar a este coach: tiene clases programadas. Asígnalas a otro coach o cancélalas antes; para que deje de aparecer en el sitio, desmarca «Disponible».' },
  'class-category/not-found': { status: 404, message: 'No encontramos esta categoría de clase.' },
  'class-category/handle-taken': { status: 409, message: 'Ya existe una categoría con ese identificador.' },
  'location/not-found': { status: 404, message: 'No encontramos esta sucursal.' },
  'room/not-found': { status: 404, message: 'No encontramos este salón.' },
  'room/name-taken': { status: 409, message: 'Esta sucursal ya tiene un salón con ese nombre.' },
  'room/other-location': { status: 400, message: 'El salón elegido no es de la sucursal de la clase.' },
  'room/over-capacity': { status: 400, message: 'El cupo de la clase es mayor que el del salón.' },
  'room/capacity-below-class': { status: 400, message: 'Una clase por venir en este salón tiene más cupo que el nuevo del salón.' },
  'room/in-use': { status: 409, message: 'No puedes eliminar este salón: tiene clases por venir. Cámbialas de salón o cancélalas antes.' },
  'in-use': { status: 409, message: 'No se puede eliminar porque tiene clases registradas. Márcalo como no disponible.' },
  'address/not-found': { status: 404, message: 'No encontramos esta dirección.' },
  'address/city-required': { status: 400, message: 'Debes agregar tu ciudad.' },
  'address/state-required': { status: 400, message: 'Debes agregar tu estado.' },
  'address/country-required': { status: 400, message: 'Debes agregar tu país.' },
  'form/not-found': { status: 404, message: 'No encontramos este formulario.' },
  'custom-field/not-found': { status: 404, message: 'No encontramos este campo.' },
  'file/not-found': { status: 404, message: 'No encontramos este archivo.' },
  'file/missing': { status: 400, message: 'Debes cargar el archivo solicitado.' },
  'file/type-not-allowed': { status: 415, message: 'El tipo de archivo no está permitido. Carga una imagen (JPG, PNG, WEBP o GIF) o un PDF.' },
  'file/not-image': { status: 415, message: 'El archivo debe ser una imagen (JPG, PNG, WEBP o GIF).' },
  'file/too-large': { status: 413, message: 'El archivo es demasiado grande.' },
  'file/storage-unavailable': { status: 502, message: 'No fue posible guardar el archivo. Inténtalo más tarde.' },
  'file/s3-not-configured': { status: 412, message: 'El almacenamiento en la nube no está configurado.' },
  // Decision 046: video files uploaded to the studio's storage
  'file/not-video': { status: 415, message: 'El archivo debe ser un video MP4, WEBM o MOV.' },
  'file/no-space': { status: 503, message: 'El servidor no tiene espacio para este video. Sube el video a un servicio de video (YouTube, Vimeo…) y pega su liga.' },
  // Quotas and deletes that would lose what others rely on (the messages with numbers: core/src/rules/refusals.ts)
  'file/quota-exceeded': { status: 413, message: 'Ya no tienes espacio para más archivos. Borra alguno de tus archivos e inténtalo de nuevo.' },
  'page/in-use': { status: 409, message: 'No puedes eliminar esta página: es obligatoria o tus clientes ya la aceptaron, y esas aceptaciones se conservan. Para dejar de mostrarla, quítale la marca de obligatoria y deja su contenido vacío.' },
  'class-category/in-use': { status: 409, message: 'No puedes eliminar esta categoría porque hay tipos de clase o videos en ella. Asígnales otra categoría primero.' },
  'desk/key-required': { status: 401, message: 'Abre la recepción con el enlace que muestra la terminal donde la iniciaste (npm run desk:web).' },

  // Online videos; the 404 and 412 texts are the spec's
  'video/not-found': { status: 404, message: 'Lo sentimos, no hemos encontrado este video.' },
  'video/membership-required': { status: 412, message: 'Lo sentimos, no cuentas con una membresía activa para clases online' },
  'favorite/not-found': { status: 404, message: 'No encontramos este favorito.' },
  'program/not-found': { status: 404, message: 'No encontramos este programa.' },
  'tag/not-found': { status: 404, message: 'No encontramos esta etiqueta.' },
  'tag/name-taken': { status: 409, message: 'Ya existe una etiqueta con ese nombre.' },
  'video-type/not-found': { status: 404, message: 'No encontramos este tipo de video.' },
  'video-type/in-use': { status: 409, message: 'Este tipo de video tiene videos: cámbialos de tipo antes de eliminarlo.' },
  'video/reference-not-found': { status: 404, message: 'El coach, el tipo de video, el tipo de clase, la categoría o la etiqueta que elegiste ya no existe.' },

  // Front desk and sync
  'sync/client-taken': { status: 403, message: 'Este escritorio está vinculado a otra cuenta. Cierra sesión e inicia con la cuenta correcta.' },
  'sync/mutation-gap': { status: 409, message: 'Faltan cambios anteriores de este escritorio; se reenviarán en orden.' },
  'sync/reset-required': { status: 409, message: 'Los datos del servidor cambiaron por completo; el escritorio se sincronizará de nuevo.' },
  'sync/new-customer-missing': {
    status: 409,
    message: 'El cliente nuevo que se registró sin conexión no quedó dado de alta en el servidor, así que este cambio no se aplicó.',
  },
  'sync/not-yet-synced': { status: 409, message: 'Este registro se hizo sin conexión y aún no llega al servidor; inténtalo de nuevo en cuanto se sincronice.' },
  // The server went back to a backup and a change the desk kept names a row that is gone or is now someone else's (decision 078).
  'sync/restored-changed': { status: 409, message: 'El servidor volvió a un respaldo anterior y lo que este cambio nombraba ya no existe o ya no es lo mismo. Revísalo y regístralo de nuevo si aún corresponde.' },
  // The operator's first-run command (decision 074): under Firebase the identity is Firebase's, so the person signs up first.
  'setup/owner-signs-up-first': { status: 409, message: 'Con AUTH_PROVIDER=firebase la dueña primero se registra en el portal con ese correo; después vuelve a correr el comando para hacerla administradora.' },
  'checkin/reservation-cancelled': { status: 409, message: 'Esta reservación fue cancelada.' },
  'checkin/class-cancelled': { status: 409, message: 'Esta clase fue cancelada.' },
  'checkin/wrong-day': { status: 409, message: 'Esta reservación es para otro día.' },
  'checkin/too-early': { status: 409, message: 'Todavía no abre el registro de asistencia de esta clase.' },
  'checkin/too-late': { status: 409, message: 'Ya cerró el registro de asistencia de esta clase.' },
  'checkin/time-in-future': { status: 400, message: 'La hora del registro de asistencia está en el futuro. Revisa la fecha y hora de este equipo.' },
  // Admin schedule and outbox
  'schedule/class-cancelled': { status: 409, message: 'Esta clase ya fue cancelada; no se puede modificar.' },
  'schedule/capacity-below-reservations': { status: 409, message: 'El cupo no puede ser menor que los lugares ya reservados en esta clase.' },
  'schedule/instructor-not-found': { status: 404, message: 'Uno de los coaches elegidos no existe.' },
  'schedule/same-coach': { status: 400, message: 'Elige a otro coach para la sustitución.' },
  'schedule/substitute-scope': { status: 400, message: 'Indica una clase, o un rango con su fecha inicial y su fecha final; no los dos.' },
  'schedule/nothing-to-substitute': { status: 404, message: 'Ese coach no da ninguna clase por venir en lo que elegiste.' },
  'schedule/overlap': { status: 409, message: 'Esta clase se cruza con otra en el mismo lugar o con el mismo coach. Si es a propósito, confírmalo para guardarla de todos modos.' },
  'schedule/reference-not-found': { status: 404, message: 'La sucursal, el tipo de clase o el paquete elegido no existe.' },
  'schedule/series-date': { status: 400, message: 'Para cambiar la fecha, edita solo esta clase: en una serie cada clase conserva su día.' },
  'schedule/not-in-series': { status: 400, message: 'Esta clase no es parte de una serie: el cambio es solo para ella.' },
  'schedule/series-not-found': { status: 404, message: 'No encontramos esa serie de clases.' },
  'schedule/nothing-to-cancel': { status: 404, message: 'La serie no tiene clases por venir sin cancelar entre esas fechas.' },
  'coach-pay/rule-not-found': { status: 404, message: 'No encontramos esa tarifa de coach.' },
  'outbox/not-found': { status: 404, message: 'No encontramos este mensaje.' },
  'outbox/already-sent': { status: 409, message: 'Este mensaje ya fue enviado; no se puede reintentar.' },
  'outbox/not-failed': { status: 409, message: 'Este mensaje aún está en espera de envío; solo se reintentan los mensajes fallidos.' },
  // Messaging settings and the test message; 'messaging/test-failed' carries the provider's reason in Spanish
  'messaging/email-not-configured': { status: 409, message: 'El correo no está configurado: escribe el servidor SMTP en Mensajes › Configuración de envío.' },
  'messaging/whatsapp-not-configured': { status: 409, message: 'WhatsApp no está configurado: escribe el ID del número y el token de acceso en Mensajes › Configuración de envío.' },
  'messaging/invalid-email': { status: 400, message: 'Escribe un correo electrónico válido para la prueba.' },
  'messaging/invalid-whatsapp': { status: 400, message: 'El número de WhatsApp no es válido. Escríbelo a 10 dígitos, o con + y la clave del país.' },
  'messaging/test-failed': { status: 502, message: 'No se pudo enviar el mensaje de prueba.' },
  'access/already-revoked': { status: 409, message: 'Este acceso ya fue eliminado.' },
  'access/not-enough-classes': { status: 409, message: 'El cliente no tiene suficientes clases para restar.' },
  // Decision 034: refunds.
  'refund/not-paid': { status: 409, message: 'Esta compra no se pagó: no hay nada que reembolsar.' },
  'refund/nothing-paid': { status: 409, message: 'Esta compra no costó nada (cortesía o gratuita): no hay dinero que reembolsar. Si quieres quitar el acceso, elimínalo.' },
  'refund/already-refunded': { status: 409, message: 'Esta compra ya fue reembolsada.' },
  'refund/over-limit': { status: 409, message: 'El importe es mayor a lo que se puede reembolsar de esta compra.' },
  'refund/zero': { status: 400, message: 'El importe del reembolso debe ser mayor a $0.00.' },
  'refund/paypal': { status: 409, message: 'Los pagos con PayPal se reembolsan desde la cuenta de PayPal del estudio; después elimina el acceso de la compra.' },
  'refund/subscription': { status: 409, message: 'Las suscripciones se reembolsan desde Stripe; aquí cancela la suscripción y elimina el acceso.' },
  'desk/staff-only': { status: 403, message: 'Solo el personal de recepción, un coach o un administrador puede usar la recepción.' },
  'desk/signed-out': { status: 401, message: 'Inicia sesión para usar la recepción.' },
  'desk/server-unreachable': { status: 503, message: 'No pudimos conectar con el servidor. Revisa la conexión a internet e inténtalo de nuevo.' },
  'desk/code-not-recognised': { status: 400, message: 'Esto no es un Código de Acceso del estudio. Escanea el código de la app del cliente o escríbelo (10 letras y números).' },
  'desk/code-outdated': { status: 400, message: 'Este código ya no es válido (folio o código anterior). Pide al cliente su Código de Acceso actual o márcalo en la lista de la clase.' },
  'desk/code-unknown': { status: 404, message: 'Código no reconocido: no corresponde a ninguna reservación de este estudio.' },
  'desk/not-synced': { status: 409, message: 'La recepción aún no termina de descargar los datos del estudio. Espera un momento.' },
  // Desk actions (decision 017)
  'desk/override-reason': { status: 400, message: 'Escribe el motivo para decidir el crédito en lugar de las reglas de cancelación.' },
  // Reasons and who may gift (decision 037)
  'access/reason-required': { status: 400, message: 'Escribe el motivo (al menos 3 letras): queda registrado en Actividad con tu nombre.' },
  'permission/gift-over-limit': { status: 403, message: 'Recepción no puede regalar este paquete: su precio pasa del límite que fijó el administrador. Pide a un administrador que lo regale o cóbralo.' },
  'desk/move-same-class': { status: 400, message: 'Elige una clase distinta a la de la reservación.' },
  'desk/move-attended': { status: 409, message: 'Esta reservación ya tiene asistencia registrada. Deshaz la asistencia antes de cambiarla de clase.' },
  // Offline sign-in and the desk lock
  'desk/offline-unknown-account': { status: 503, message: 'No hay conexión con el servidor y esta cuenta no ha entrado antes en esta recepción. Entra con una cuenta que ya la haya usado, o espera a que vuelva la conexión.' },
  'desk/offline-wrong-password': { status: 401, message: 'La contraseña no coincide con la última que usaste en esta recepción.' },
  'desk/too-many-guesses': { status: 429, message: 'Demasiados intentos en esta recepción. Espera unos minutos e inténtalo de nuevo.' },
  'desk/locked': { status: 403, message: 'La recepción está bloqueada. Desbloquéala con tu PIN o tu contraseña.' },
  'desk/wrong-pin': { status: 401, message: 'El PIN no es correcto.' },
  'desk/no-pin': { status: 409, message: 'Aún no tienes un PIN en esta recepción. Desbloquea con tu contraseña.' },
  'desk/pin-format': { status: 400, message: 'El PIN debe tener de 4 a 6 números.' },
  // The studio's server address, set on the desk's first run (decision 019)
  'desk/server-not-set': { status: 409, message: 'Primero escribe la dirección del servidor del estudio.' },
  'desk/server-address-invalid': { status: 400, message: 'Escribe la dirección completa del servidor, por ejemplo https://reservas.tuestudio.mx' },
  'desk/server-address-unreachable': { status: 503, message: 'No hubo respuesta en esa dirección. Revisa que esté bien escrita y que este equipo tenga internet.' },
  'desk/server-address-not-ours': { status: 400, message: 'Esa dirección responde, pero no es el servidor de reservaciones del estudio. Pide la dirección correcta a quien administra el sistema.' },
  'desk/server-address-fixed': { status: 409, message: 'La dirección del servidor la fijó quien instaló esta recepción; pídele que la cambie.' },
  'desk/server-change-admin-only': { status: 403, message: 'Solo un administrador puede cambiar la dirección del servidor.' },
  'desk/server-change-pending': { status: 409, message: 'Hay cambios de esta recepción que aún no llegan al servidor. Espera a que se envíen (o atiende los rechazados) antes de cambiar de servidor.' },

  // Admin customers, packages and discounts; 'Descuento no encontrado.' is the spec's
  'customer/unknown': { status: 404, message: 'No encontramos a este cliente.' },
  'privacy-request/not-found': { status: 404, message: 'No encontramos esta solicitud.' },
  'privacy-request/answered': { status: 409, message: 'Esta solicitud ya se respondió.' },
  'privacy-request/too-many': { status: 409, message: 'Ya tienes 5 solicitudes sin responder. Espera la respuesta del estudio antes de enviar otra.' },
  'privacy-request/future-bookings': {
    status: 409,
    message: 'Antes de cancelar sus datos, cancela sus reservaciones futuras y sus listas de espera (desde su ficha).',
  },
  // Inviting the customers without a password to create one (decision 128)
  'customer-invitation/no-email-channel': {
    status: 409,
    message: 'Este estudio todavía no envía correos: configura el envío de correo en la sección Mensajes antes de invitar a tus clientes. No se preparó ninguna invitación.',
  },
  'customer-invitation/firebase': {
    status: 409,
    message: 'Tu estudio inicia sesión con Firebase: cada cliente crea su contraseña desde «¿Olvidaste tu contraseña?» con su correo.',
  },
  'customer/own-role': { status: 409, message: 'No puedes cambiar tu propio rol; pídeselo a otro administrador.' },
  'customer/field-admin-only': { status: 403, message: 'Recepción no puede cambiar este dato del cliente; pídeselo a un administrador.' },
  'customer/staff-account': { status: 403, message: 'Los datos del personal y de los coaches los cambia un administrador.' },
  'customer-note/not-found': { status: 404, message: 'No encontramos esta nota del cliente; quizá alguien ya la quitó.' },
  'permission/note-not-yours': { status: 403, message: 'Recepción quita solo las notas que escribió; pide a un administrador que quite esta.' },
  'access/terminal-not-card': { status: 400, message: 'Los datos de la terminal (últimos 4 dígitos y autorización) van solo con un cobro con tarjeta.' },
  'cash-shift/already-open': { status: 409, message: 'Ya tienes la caja abierta: ciérrala antes de abrir otro turno.' },
  'cash-shift/not-found': { status: 404, message: 'No encontramos este turno de caja.' },
  'cash-shift/closed': { status: 409, message: 'Este turno de caja ya se cerró.' },
  'cash-shift/note-required': { status: 400, message: 'La caja no cuadra: escribe qué pasó con la diferencia antes de cerrar.' },
  'product/not-found': { status: 404, message: 'No encontramos este producto; quizá ya no se vende.' },
  'product/name-taken': { status: 409, message: 'Ya hay un producto con este nombre.' },
  'product/out-of-stock': { status: 409, message: 'No hay piezas suficientes de este producto en existencia.' },
  'sale/split-needs-card': { status: 400, message: 'Para dividir el pago, elige la tarjeta como forma de pago: el efectivo es la otra parte.' },
  'sale/split-amount': { status: 400, message: 'La parte en efectivo debe ser mayor que $0 y menor que el total de la venta.' },
  'product-sale/not-found': { status: 404, message: 'No encontramos esta venta de producto.' },
  'product-return/too-many': { status: 409, message: 'No quedan tantas piezas por devolver de esta venta.' },
  'sale/empty': { status: 400, message: 'Agrega al menos un paquete o un producto a la venta.' },
  'permission/cash-shift-not-yours': { status: 403, message: 'Recepción cierra solo su propia caja; pide a un administrador que cierre esta.' },
  'customer/email-via-link': { status: 400, message: 'Tu correo se cambia en Mi Información › Correo electrónico: te enviamos una liga al correo nuevo para confirmarlo.' },
  'package/unknown': { status: 404, message: 'No encontramos este paquete.' },
  'package/sale-price': { status: 400, message: 'El precio de oferta debe ser menor que el precio.' },
  'package/subscription-fields': { status: 400, message: 'Una suscripción necesita periodo e intervalo de cobro.' },
  'package/not-subscription': { status: 400, message: 'Un paquete que no es suscripción no lleva periodo, intervalo ni prueba gratis.' },
  'package/class-type-repeated': { status: 400, message: 'Cada tipo de clase puede aparecer una sola vez en el paquete.' },
  'package/reference-not-found': { status: 404, message: 'El tipo de clase o el archivo elegido no existe.' },
  'package/stripe-error': { status: 502, message: 'No fue posible actualizar el paquete en Stripe; no se guardó ningún cambio. Inténtalo más tarde.' },
  'discount/not-found': { status: 404, message: 'Descuento no encontrado.' },
  'discount/code-taken': { status: 409, message: 'Ya existe un descuento con ese código.' },
  'discount/percent-range': { status: 400, message: 'El porcentaje de descuento debe estar entre 1 y 100.' },
  'discount/amount-positive': { status: 400, message: 'El monto del descuento debe ser mayor a cero.' },
  'discount/dates': { status: 400, message: 'La fecha de fin del descuento debe ser posterior a la de inicio.' },
  'discount/max-uses-below-uses': { status: 400, message: 'El máximo de usos no puede ser menor que los usos que ya tiene el descuento.' },
  'discount/package-not-found': { status: 404, message: 'Uno de los paquetes elegidos para el descuento no existe.' },
  // Decision 033: the previous admin panel's calls that the product answers with a refusal.
  'legacy/no-circuits': { status: 404, message: 'Los circuitos no existen en Estudio: el estudio vende paquetes de clases y membresías.' },
  'legacy/no-video-admin': { status: 404, message: 'Estudio no crea, edita ni borra videos desde el panel: la biblioteca se lee tal como está.' },
  'legacy/no-report': { status: 404, message: 'Estudio no tiene este reporte; consulta los reportes de ventas, asistencia, membresías y faltas.' },
  'legacy/role': { status: 400, message: 'El rol debe ser admin, manager, coach o customer (manager y coach trabajan en recepción).' },
  'legacy/total-not-price': { status: 400, message: 'un regalo no se cobra: su total es 0.' },
  // Decision 040: what the previous panel sends that the desk asks differently.
  'permission/credits-admin-only': { status: 403, message: 'Solo un Administrador puede dar clases ilimitadas o sin vencimiento, extender la vigencia o ampliar los créditos de un cliente.' },
  'permission/credits-over-limit': { status: 403, message: 'Recepción no puede dar tantas clases: su valor pasa del límite de regalos que fijó el administrador. Pide a un administrador que las dé o véndele un paquete.' },
  'permission/price-admin-only': { status: 403, message: 'Solo un Administrador puede registrar un precio distinto al del paquete; Recepción cobra el precio de lista.' },
  'legacy/attendee-payment': { status: 400, message: 'un asistente se agrega con los créditos del cliente; el pago se registra con la compra de un paquete.' },
  // Decision 094: what the previous panel's screens send that the product keeps no place for.
  'legacy/order-status': { status: 400, message: 'el estado debe ser active, pending o cancelled.' },

  // Mexico's money: OXXO, SPEI, meses sin intereses and CFDI 4.0 invoices (decisions 080-086)
  'checkout/oxxo-amount': { status: 400, message: 'OXXO acepta pagos de $10.00 a $10,000.00 MXN; para este paquete elige otra forma de pago.' },
  'checkout/installments-plan': { status: 400, message: 'Ese plan de meses sin intereses no está disponible para esta tarjeta y este monto. Elige otro o paga en una sola exhibición.' },
  'tax-profile/invalid': { status: 400, message: 'Revisa tus datos fiscales.' },
  'tax-profile/missing': { status: 412, message: 'Para pedir la factura primero agrega tus datos fiscales en Mi Información.' },
  'invoice/not-found': { status: 404, message: 'No encontramos esta factura.' },
  'invoice/not-paid': { status: 409, message: 'Solo se pueden facturar compras pagadas.' },
  'invoice/nothing-to-invoice': { status: 409, message: 'Esta compra no tuvo costo (cortesía o gratuita): no hay nada que facturar.' },
  'invoice/window-closed': { status: 409, message: 'El plazo para pedir la factura de esta compra ya terminó; la venta va en la factura global del estudio.' },
  'invoice/in-global': { status: 409, message: 'Esta venta ya está en la factura global del estudio; ya no puede facturarse a nombre de una persona.' },
  'invoice/not-stamped': { status: 409, message: 'La factura aún no está timbrada: todavía no hay PDF ni XML.' },
  'invoice/cancelled-sale': { status: 409, message: 'Esta compra fue cancelada o reembolsada: ya no se puede facturar.' },
  'fiscal/settings-invalid': { status: 400, message: 'Revisa los datos fiscales del estudio.' },
  'pac/error': { status: 502, message: 'El proveedor de facturación no respondió. Inténtalo más tarde.' },

  // App configuration
  'appconfig/unknown-key': { status: 400, message: 'La clave de configuración no existe.' },
  // App-config values checked by their type (the message names the setting); the current password to change it
  'appconfig/invalid-value': { status: 400, message: 'Uno de los valores de la configuración no es válido.' },
  'auth/wrong-current-password': { status: 400, message: 'La contraseña actual no es correcta.' },
} as const satisfies Record<string, { status: number; message: string }>;

export type DomainErrorCode = keyof typeof domainErrors;

/**
 * A refusal from the catalogue above: an answer to the caller, not a fault, so
 * it carries no stack trace (its `stack` is its name and message). tRPC reads
 * the stack of every error a procedure throws, and formatting one through the
 * source maps was 5 % of the server's CPU in a rush for a full class.
 */
export class DomainError extends Error {
  readonly code: DomainErrorCode;
  readonly status: number;
  constructor(code: DomainErrorCode, message?: string) {
    const stackTraceLimit = Error.stackTraceLimit;
    Error.stackTraceLimit = 0;
    super(message ?? domainErrors[code].message);
    Error.stackTraceLimit = stackTraceLimit;
    this.name = 'DomainError';
    this.code = code;
    this.status = domainErrors[code].status;
  }
}

export function isDomainErrorCode(code: unknown): code is DomainErrorCode {
  return typeof code === 'string' && Object.hasOwn(domainErrors, code);
}

/**
 * The same refusals said to staff at the desk: the catalogue's
 * messages above speak to the customer ('tus créditos', 'tu invitado'); at the
 * counter they speak of the customer. The desk answers with these.
 */
export const staffErrorMessages: Partial<Record<DomainErrorCode, string>> = {
  'booking/no-credits': 'El cliente no tiene créditos para esta clase. Véndele un paquete o regístralo con pago en efectivo.',
  'booking/guest-no-credits': 'El invitado usa un crédito más y el cliente no tiene otro crédito para esta clase.',
  'booking/penalized': 'El cliente no puede reservar: tiene una penalización vigente.',
  'booking/already-booked': 'El cliente ya tiene una reservación en esta clase.',
  'booking/guest-name': 'Escribe el nombre del invitado.',
  'booking/guest-spot-required': 'Elige también un lugar para el invitado.',
  'booking/guest-spot-invalid': 'El invitado necesita un lugar distinto al del cliente.',
  'reservation/cancel-disabled': 'Las clases de este cliente son transferibles y no se cancelan.',
  'reservation/cancel-limit': 'El cliente ya alcanzó el número máximo de cancelaciones de este crédito.',
  'waitlist/class-not-full': 'Solo se puede anotar en la lista de espera de una clase llena.',
  'waitlist/already-joined': 'El cliente ya está en la lista de espera de esta clase.',
  'waitlist/already-booked': 'El cliente ya tiene una reservación en esta clase.',
  'discount/invalid': 'Ese código de descuento no existe, venció o está apagado.',
  'discount/not-applicable': 'Ese código no aplica a los paquetes de esta venta (o el cliente ya lo usó en su primera compra).',
  'discount/exhausted': 'Ese código ya se usó todas las veces permitidas (o el cliente ya lo usó las veces que le tocan).',
};

/** What staff read for an error code: the staff wording when the catalogue's speaks to the customer, else `message`. */
export function staffErrorMessage(code: string, message: string): string {
  return (isDomainErrorCode(code) && staffErrorMessages[code]) || message;
}

/** The JSON body of every error answer of /api (and the `data` of tRPC errors). */
export interface ApiErrorBody {
  code: string;
  message: string;
  /** The field that failed validation, as a dotted path. */
  field?: string;
  /** A card decline's provider code (402 'payment/card-declined'). */
  decline_code?: string;
}
