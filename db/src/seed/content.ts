import { appConfigDefaults, guestRuleText } from '@estudio/core';

/** Static Spanish content of the demo studio. */

export const locations = [
  {
    name: 'Roma Norte',
    address: 'Av. Álvaro Obregón 120, Roma Norte, Cuauhtémoc, 06700 Ciudad de México, CDMX',
    city: 'Ciudad de México',
    phone: '5512345678',
    maps_url: 'https://maps.google.com/?q=Av.+%C3%81lvaro+Obreg%C3%B3n+120,+Roma+Norte,+CDMX',
  },
  {
    name: 'Coyoacán',
    address: 'Av. Francisco Sosa 215, Santa Catarina, Coyoacán, 04010 Ciudad de México, CDMX',
    city: 'Ciudad de México',
    phone: '5587654321',
    maps_url: 'https://maps.google.com/?q=Av.+Francisco+Sosa+215,+Coyoac%C3%A1n,+CDMX',
  },
] as const;

export const classCategories = [
  {
    name: 'Mente y cuerpo',
    handle: 'mente-y-cuerpo',
    description: 'Clases de movimiento consciente para ganar fuerza, movilidad y calma.',
  },
  {
    name: 'Cardio y fuerza',
    handle: 'cardio-y-fuerza',
    description: 'Clases intensas con música para sudar, quemar energía y salir renovada.',
  },
] as const;

/** category: index in classCategories; capacity: default seats per class. */
export const classTypes = [
  {
    name: 'Yoga',
    level: 'Todos los niveles',
    what_to_bring: 'Ropa cómoda y agua; el estudio presta tapetes y bloques.',
    description:
      'Vinyasa fluido que sincroniza respiración y movimiento. Mejora tu flexibilidad, fuerza y equilibrio mientras calmas la mente. Apto para todos los niveles.',
    icon: 'yoga',
    image: '/demo/class-types/yoga.jpg',
    spot_map: null,
    color: '#2b8a3e',
    category: 0,
    capacity: 14,
    duration: 60,
  },
  {
    name: 'Pilates Reformer',
    level: 'Principiante a intermedio',
    what_to_bring: 'Calcetas antiderrapantes (obligatorias en el reformer) y agua.',
    description:
      'Trabajo en máquina reformer enfocado en el core, la postura y la estabilidad. Grupos reducidos para que tu coach corrija cada movimiento.',
    icon: 'pilates',
    image: '/demo/class-types/reformer.jpg',
    spot_map: '4,4',
    color: '#5f3dc4',
    category: 0,
    capacity: 8,
    duration: 50,
  },
  {
    name: 'Indoor Cycling',
    level: 'Todos los niveles',
    what_to_bring: 'Toalla, agua y tenis; si tienes zapatos de clip, tráelos.',
    description:
      'Rodada de alta energía a oscuras con luces y playlists que te hacen olvidar el cansancio. Intervalos de velocidad y resistencia para tu cardio.',
    icon: 'bike',
    image: '/demo/class-types/cycling.jpg',
    spot_map: '4,6,6',
    color: '#c92a2a',
    category: 1,
    capacity: 16,
    duration: 45,
  },
  {
    name: 'Barre',
    level: 'Intermedio',
    what_to_bring: 'Calcetas antiderrapantes y agua.',
    description:
      'Fusión de ballet, pilates y entrenamiento funcional en la barra. Movimientos pequeños y controlados que tonifican piernas, glúteos y abdomen.',
    icon: 'barre',
    image: '/demo/class-types/barre.jpg',
    spot_map: null,
    color: '#c2255c',
    category: 1,
    capacity: 12,
    duration: 50,
  },
] as const;

/** types: indexes in classTypes the coach teaches. */
export const instructors = [
  {
    name: 'Valeria',
    last_name: 'Montes',
    nick_name: 'Vale',
    quote: 'Tu respiración es el ancla: vuelve a ella cada vez que la mente se vaya.',
    short_bio:
      'Instructora de Vinyasa y Hatha Yoga certificada por Yoga Alliance (RYT 500). Estudió en Rishikesh y lleva ocho años enseñando en la Ciudad de México.',
    instagram: '@vale.montes.yoga',
    birthdate: '1989-03-14',
    music_type: 'Mantras, chill y lo-fi',
    photo: '/demo/coaches/valeria.jpg',
    types: [0],
  },
  {
    name: 'Rodrigo',
    last_name: 'Salinas',
    nick_name: 'Rodri',
    quote: 'Si fuera fácil, todos lo harían. Tú no eres todos.',
    short_bio:
      'Coach de Indoor Cycling y entrenador funcional. Exciclista de ruta, corrió la Vuelta a Guatemala y hoy convierte cada rodada en una fiesta.',
    instagram: '@rodrisalinas.ride',
    birthdate: '1991-07-02',
    music_type: 'Reggaetón, electrónica y pop latino',
    photo: '/demo/coaches/rodrigo.jpg',
    types: [2],
  },
  {
    name: 'Fernanda',
    last_name: 'Ochoa',
    nick_name: 'Fer',
    quote: 'Pequeños movimientos, grandes cambios.',
    short_bio:
      'Bailarina egresada de la Escuela Nacional de Danza Clásica y Contemporánea. Certificada en Barre y Pilates Mat; sus clases combinan técnica y mucha energía.',
    instagram: '@fer.ochoa.barre',
    birthdate: '1994-11-23',
    music_type: 'Pop, disco y clásicos de los 2000',
    photo: '/demo/coaches/fernanda.jpg',
    types: [3, 1],
  },
  {
    name: 'Daniela',
    last_name: 'Cruz',
    nick_name: 'Dani',
    quote: 'Un core fuerte sostiene todo lo demás.',
    short_bio:
      'Fisioterapeuta por la UNAM y certificada en Pilates Reformer por Balanced Body. Se especializa en postura, rehabilitación y embarazo.',
    instagram: '@danicruz.pilates',
    birthdate: '1987-05-30',
    music_type: 'Indie, acústico y jazz suave',
    photo: '/demo/coaches/daniela.jpg',
    types: [1],
  },
  {
    name: 'Emilio',
    last_name: 'Navarro',
    nick_name: 'Emi',
    quote: 'Suda, sonríe y repite.',
    short_bio:
      'Coach de Indoor Cycling y Yoga Power. Licenciado en Ciencias del Deporte; le encanta retar a su grupo con intervalos y terminar con estiramientos profundos.',
    instagram: '@emilionavarro.coach',
    birthdate: '1993-09-08',
    music_type: 'Rock, house y hip hop',
    photo: '/demo/coaches/emilio.jpg',
    types: [2, 0],
  },
] as const;

export const classTags = [
  { name: 'Principiantes', color: '#2f9e44' },
  { name: 'Intenso', color: '#e03131' },
  { name: 'Nuevo', color: '#1c7ed6' },
] as const;

export const videoTags = [
  'Principiantes',
  'Intermedio',
  'Avanzado',
  'Sin equipo',
  'Core',
  'Flexibilidad',
  'Cardio',
  'Relajación',
] as const;

export const videoTypes = [
  { name: 'Clase completa', description: 'Clases grabadas de principio a fin, como en el estudio.' },
  { name: 'Express', description: 'Sesiones cortas de 20 minutos o menos para días ocupados.' },
  { name: 'Meditación', description: 'Prácticas guiadas de respiración y meditación.' },
  { name: 'Tutorial', description: 'Técnica paso a paso de posturas y ejercicios.' },
] as const;

export const programs = [
  {
    name: 'Reto 21 días de Yoga',
    description: 'Tres semanas para crear el hábito: una práctica al día que crece contigo, de lo básico a tu primera inversión.',
    image: '/demo/programs/reto-yoga.jpg',
  },
  {
    name: 'Pilates en casa: fundamentos',
    description: 'Aprende los principios del método Pilates sin máquina: respiración, centro y control.',
    image: '/demo/programs/pilates-casa.jpg',
  },
  {
    name: 'Barre express',
    description: 'Rutinas cortas de barre para tonificar con solo una silla y tu peso corporal.',
    image: '/demo/programs/barre-express.jpg',
  },
] as const;

/** instructor, type (video type), classType: indexes; tags: indexes in videoTags; program: index or null. */
export const videos = [
  { name: 'Vinyasa para principiantes', description: 'Tu primera clase de vinyasa: saludos al sol, posturas de pie y relajación final.', duration: 45, instructor: 0, type: 0, classType: 0, tags: [0, 5], program: 0 },
  { name: 'Yoga para despertar', description: 'Secuencia matutina suave para activar la columna y empezar el día con energía.', duration: 20, instructor: 0, type: 1, classType: 0, tags: [0, 3], program: 0 },
  { name: 'Flujo de caderas abiertas', description: 'Posturas para liberar la tensión de caderas y espalda baja después de estar sentada.', duration: 35, instructor: 0, type: 0, classType: 0, tags: [1, 5], program: 0 },
  { name: 'Yoga power', description: 'Práctica dinámica con fuerza de brazos, core y transiciones fluidas.', duration: 50, instructor: 4, type: 0, classType: 0, tags: [2, 4], program: 0 },
  { name: 'Parada de cabeza paso a paso', description: 'Tutorial seguro para preparar y lograr tu sirsasana con apoyo en la pared.', duration: 15, instructor: 0, type: 3, classType: 0, tags: [1, 4], program: 0 },
  { name: 'Yin yoga para dormir mejor', description: 'Posturas sostenidas y respiración lenta para soltar el día antes de dormir.', duration: 30, instructor: 0, type: 0, classType: 0, tags: [0, 7, 5], program: null },
  { name: 'Meditación de cinco minutos', description: 'Una pausa guiada para volver al presente en cualquier momento del día.', duration: 5, instructor: 0, type: 2, classType: null, tags: [0, 7], program: null },
  { name: 'Respiración para la ansiedad', description: 'Técnicas de pranayama que calman el sistema nervioso en pocos minutos.', duration: 10, instructor: 3, type: 2, classType: null, tags: [0, 7], program: null },
  { name: 'Pilates mat: los cien', description: 'Domina el ejercicio clásico de los cien y la respiración lateral del método.', duration: 12, instructor: 3, type: 3, classType: 1, tags: [0, 4, 3], program: 1 },
  { name: 'Pilates mat nivel 1', description: 'Clase completa de fundamentos: centro, alineación y control en cada repetición.', duration: 40, instructor: 3, type: 0, classType: 1, tags: [0, 4, 3], program: 1 },
  { name: 'Pilates mat nivel 2', description: 'Sube la intensidad con secuencias más largas y trabajo de estabilidad.', duration: 45, instructor: 3, type: 0, classType: 1, tags: [1, 4, 3], program: 1 },
  { name: 'Postura y espalda sana', description: 'Ejercicios para fortalecer la espalda y corregir la postura de oficina.', duration: 25, instructor: 3, type: 1, classType: 1, tags: [0, 3], program: 1 },
  { name: 'Barre total', description: 'Clase completa en la barra para piernas, glúteos, brazos y abdomen.', duration: 50, instructor: 2, type: 0, classType: 3, tags: [1, 4], program: 2 },
  { name: 'Barre express: glúteos', description: 'Veinte minutos de pliés, relevés y pulsos para unos glúteos fuertes.', duration: 20, instructor: 2, type: 1, classType: 3, tags: [1, 3], program: 2 },
  { name: 'Barre express: brazos y core', description: 'Tonifica brazos y abdomen con movimientos pequeños y controlados.', duration: 18, instructor: 2, type: 1, classType: 3, tags: [0, 3, 4], program: 2 },
  { name: 'Barre cardio', description: 'Barre con intervalos de cardio para subir las pulsaciones sin impacto.', duration: 30, instructor: 2, type: 0, classType: 3, tags: [2, 6], program: 2 },
  { name: 'Rodada de intervalos', description: 'Indoor cycling con intervalos de velocidad y subidas de resistencia.', duration: 45, instructor: 1, type: 0, classType: 2, tags: [2, 6], program: null },
  { name: 'Rodada ritmo latino', description: 'Pedalea al ritmo de reggaetón y cumbia en esta rodada llena de energía.', duration: 40, instructor: 1, type: 0, classType: 2, tags: [1, 6], program: null },
  { name: 'Técnica de cycling', description: 'Ajusta tu bici, aprende las posiciones y cuida tus rodillas en cada rodada.', duration: 12, instructor: 4, type: 3, classType: 2, tags: [0], program: null },
  { name: 'Estiramientos post rodada', description: 'Estiramientos para cuádriceps, isquiotibiales y espalda después de pedalear.', duration: 15, instructor: 4, type: 1, classType: 2, tags: [0, 5, 7], program: null },
] as const;

export const announcements = [
  {
    title: '¡Abrimos en Coyoacán!',
    content:
      'Nuestro segundo estudio ya está abierto en Av. Francisco Sosa 215. Reformers nuevos, salón de cycling con 16 bicis y regaderas. Te esperamos.',
  },
  {
    title: 'Nuevas clases de Barre los sábados',
    content: 'A partir de este mes Fer imparte Barre los sábados a las 9:00 en Roma Norte. Reserva tu lugar desde el calendario.',
  },
  {
    title: 'Horario en días festivos',
    content:
      'Los días festivos abrimos de 8:00 a 14:00. Revisa el calendario de la semana: las clases de la tarde se recorren a la mañana.',
  },
  {
    title: 'Masterclass Sunset Yoga',
    content:
      'Una práctica especial al atardecer con Vale y música en vivo. Cupo limitado; adquiere tu acceso en la sección de paquetes.',
  },
] as const;

export const pages = [
  {
    slug: 'terminos-y-condiciones',
    title: 'Términos y condiciones',
    required: true,
    content: `<h2>Términos y condiciones de uso</h2>
<p>Al registrarte, reservar clases o adquirir paquetes en Estudio Demo (en adelante, «el Estudio») aceptas los siguientes términos y condiciones.</p>
<h3>1. Cuenta</h3>
<p>La cuenta es personal e intransferible. Eres responsable de mantener la confidencialidad de tu contraseña y de la veracidad de la información que registras, incluidos tu nombre, teléfono y fecha de nacimiento.</p>
<h3>2. Paquetes y créditos</h3>
<p>Cada paquete otorga el número de créditos indicado en su descripción. Los créditos tienen la vigencia señalada en el paquete, contada a partir de la fecha de compra, y no son reembolsables ni transferibles a otra persona. Los créditos vencidos no se reponen.</p>
<h3>3. Membresías y suscripciones</h3>
<p>Las membresías con cargo recurrente se renuevan automáticamente en cada periodo hasta que las canceles desde la sección Mis Compras. La cancelación surte efecto al terminar el ciclo pagado y no genera reembolsos. Si cancelas durante un periodo de prueba, el acceso termina de inmediato.</p>
<h3>4. Reservaciones</h3>
<p>Las reservaciones se realizan desde el calendario y están sujetas a disponibilidad. Te pedimos llegar diez minutos antes del inicio de la clase; después de cinco minutos de iniciada, tu lugar podrá liberarse. Las cancelaciones se rigen por nuestras Políticas de cancelación.</p>
<h3>5. Salud y responsabilidad</h3>
<p>Declaras encontrarte en condiciones de salud adecuadas para realizar actividad física. Si tienes alguna lesión, embarazo o condición médica, consulta a tu médico e infórmalo a tu coach antes de la clase. El Estudio no se hace responsable por lesiones derivadas de no seguir las indicaciones del personal.</p>
<h3>6. Conducta</h3>
<p>Para el bienestar de la comunidad, pedimos puntualidad, respeto al personal y a las demás personas, y el uso de toalla y ropa deportiva adecuada. El Estudio puede suspender cuentas en caso de conductas inapropiadas.</p>
<h3>7. Pagos</h3>
<p>Los precios están expresados en pesos mexicanos (MXN) e incluyen IVA. Los pagos con tarjeta se procesan a través de proveedores certificados; el Estudio no almacena los datos completos de tu tarjeta.</p>
<h3>8. Cambios</h3>
<p>El Estudio puede modificar horarios, coaches y estos términos. Los cambios se publicarán en este sitio y aplicarán a partir de su publicación.</p>
<p>Última actualización: enero de 2025.</p>`,
  },
  {
    slug: 'aviso-de-privacidad',
    title: 'Aviso de privacidad',
    // Mexico's data-protection law: the notice is accepted at sign-up, like the terms.
    required: true,
    content: `<h2>Aviso de privacidad</h2>
<p>Estudio Demo, con domicilio en Av. Álvaro Obregón 120, Roma Norte, Ciudad de México, es responsable del tratamiento de tus datos personales conforme a la Ley Federal de Protección de Datos Personales en Posesión de los Particulares.</p>
<h3>Datos que recabamos</h3>
<p>Nombre, correo electrónico, teléfono, fecha de nacimiento, dirección de facturación, historial de reservaciones y compras. No recabamos datos personales sensibles salvo la información de salud que decidas compartir con tu coach.</p>
<h3>Finalidades</h3>
<p>Administrar tu cuenta, tus reservaciones y tus pagos; enviarte avisos sobre tus clases y tu membresía; y, si lo autorizas, enviarte promociones. Puedes oponerte a las finalidades secundarias escribiendo a hola@estudio.demo.</p>
<h3>Derechos ARCO</h3>
<p>Puedes acceder, rectificar, cancelar u oponerte al tratamiento de tus datos enviando una solicitud a hola@estudio.demo con tu nombre y una identificación. Responderemos en un plazo máximo de 20 días hábiles.</p>
<h3>Transferencias</h3>
<p>Compartimos únicamente los datos necesarios con nuestros procesadores de pago y de mensajería, quienes están obligados a protegerlos.</p>`,
  },
  {
    slug: 'preguntas-frecuentes',
    title: 'Preguntas frecuentes',
    required: false,
    content: `<h2>Preguntas frecuentes</h2>
<h3>¿Necesito experiencia previa?</h3>
<p>No. Todas nuestras clases tienen opciones para principiantes y tu coach te dará variantes según tu nivel.</p>
<h3>¿Qué debo llevar?</h3>
<p>Ropa cómoda, una botella de agua y toalla. Para Pilates Reformer y Barre se usan calcetas antiderrapantes, que también vendemos en recepción.</p>
<h3>¿Cómo reservo una clase?</h3>
<p>Compra un paquete, entra a tu cuenta y elige la clase en el calendario. En Indoor Cycling y Reformer puedes elegir tu lugar.</p>
<h3>¿Puedo llevar a un invitado?</h3>
<p>Sí. Al reservar puedes escribir el nombre de tu invitado; en Indoor Cycling y Reformer eliges también su lugar. ${guestRuleText(appConfigDefaults)}</p>
<h3>¿Qué pasa si la clase está llena?</h3>
<p>Anótate en la lista de espera. Si se libera un lugar te avisamos por WhatsApp y el primero en reservar se queda con él.</p>
<h3>¿Tienen estacionamiento?</h3>
<p>En Roma Norte hay estacionamientos públicos a media cuadra; en Coyoacán contamos con servicio de valet por las tardes.</p>`,
  },
  {
    slug: 'politicas-de-cancelacion',
    title: 'Políticas de cancelación',
    required: false,
    content: `<h2>Políticas de cancelación</h2>
<p>Puedes cancelar tu reservación desde Mis Reservaciones hasta 12 horas antes del inicio de la clase y tu crédito se te regresa de inmediato.</p>
<p>Si cancelas con menos de 12 horas de anticipación, tu lugar se libera para alguien de la lista de espera, pero el crédito no se te regresará.</p>
<p>Cada crédito puede cancelarse como máximo dos veces.</p>
<p>Las membresías ilimitadas no pierden créditos, pero tres inasistencias consecutivas sin cancelar generan una penalización: no podrás reservar durante tres días.</p>
<p>Si el Estudio cancela una clase, tu crédito se te regresa automáticamente y te avisamos por correo y WhatsApp.</p>`,
  },
] as const;

export const firstNamesFemale = [
  'María', 'Guadalupe', 'Fernanda', 'Ximena', 'Valeria', 'Sofía', 'Regina', 'Camila', 'Daniela', 'Andrea',
  'Paola', 'Alejandra', 'Mariana', 'Lucía', 'Renata', 'Natalia', 'Itzel', 'Karla', 'Montserrat', 'Ana Paula',
  'Jimena', 'Paulina', 'Gabriela', 'Adriana', 'Mónica', 'Claudia', 'Diana', 'Frida', 'Abril', 'Carolina',
] as const;

export const firstNamesMale = [
  'José', 'Luis', 'Juan Pablo', 'Diego', 'Santiago', 'Emiliano', 'Carlos', 'Miguel Ángel', 'Alejandro', 'Ricardo',
  'Jorge', 'Eduardo', 'Andrés', 'Sebastián', 'Mateo', 'Iván', 'Héctor', 'Fernando', 'Raúl', 'Arturo',
] as const;

export const lastNames = [
  'Hernández', 'García', 'Martínez', 'López', 'González', 'Pérez', 'Rodríguez', 'Sánchez', 'Ramírez', 'Cruz',
  'Flores', 'Gómez', 'Morales', 'Vázquez', 'Reyes', 'Jiménez', 'Torres', 'Díaz', 'Gutiérrez', 'Ruiz',
  'Mendoza', 'Aguilar', 'Ortiz', 'Moreno', 'Castillo', 'Romero', 'Álvarez', 'Méndez', 'Chávez', 'Rivera',
  'Juárez', 'Ramos', 'Domínguez', 'Herrera', 'Medina', 'Castro', 'Vargas', 'Guzmán', 'Velázquez', 'Rojas',
] as const;

export const signupReasons = ['Instagram', 'Recomendación de un amigo', 'Google', 'Pasé por el estudio', 'TikTok', 'Otro'] as const;
export const otherSignupReasons = ['Me lo regaló mi pareja', 'Evento en mi oficina', 'Lo vi en una revista'] as const;

export const neighborhoods = [
  { neighborhood: 'Roma Norte', zip_code: '06700', street: 'Calle Colima' },
  { neighborhood: 'Condesa', zip_code: '06140', street: 'Calle Ámsterdam' },
  { neighborhood: 'Del Valle', zip_code: '03100', street: 'Calle Pilares' },
  { neighborhood: 'Coyoacán', zip_code: '04000', street: 'Calle Higuera' },
  { neighborhood: 'Narvarte', zip_code: '03020', street: 'Calle Pitágoras' },
  { neighborhood: 'Escandón', zip_code: '11800', street: 'Calle José Martí' },
] as const;

/**
 * The profile forms; "Dirección" is the address form the spec validates field
 * by field. "Información personal" is asked at sign-up; "Antes de tu primera
 * clase" once before the first booking, with the health question asked with
 * express consent (decision 087).
 */
export const forms = [
  {
    name: 'Información personal',
    object: 'customer',
    placement: 'signup',
    fields: [
      { key: 'name', label: 'Nombre', type: 'text', required: true, step: 0 },
      { key: 'last_name', label: 'Apellidos', type: 'text', required: true, step: 0 },
      { key: 'phone', label: 'Teléfono', type: 'phone', required: true, step: 0 },
      { key: 'birthdate', label: 'Fecha de nacimiento', type: 'date', required: true, step: 0 },
      { key: 'instagram', label: 'Instagram', type: 'text', required: false, step: 1 },
      {
        key: 'signup_reason',
        label: '¿Cómo te enteraste de nosotros?',
        type: 'select',
        required: false,
        step: 1,
        options: signupReasons.map((r) => ({ label: r, value: r })),
      },
      {
        key: 'signup_reason_other',
        label: 'Cuéntanos cómo',
        type: 'text',
        required: false,
        step: 1,
        precondition: { key: 'signup_reason', value: 'Otro' },
      },
    ],
  },
  {
    name: 'Antes de tu primera clase',
    object: 'customer',
    placement: 'booking',
    fields: [
      { key: 'emergency_contact', label: 'Contacto de emergencia (nombre y teléfono)', type: 'text', required: false, step: 0 },
      { key: 'health_notes', label: 'Lesiones o condiciones médicas que tu coach deba conocer', type: 'textarea', required: false, step: 0 },
    ],
  },
  {
    name: 'Dirección',
    object: 'address',
    placement: 'profile',
    fields: [
      { key: 'street', label: 'Calle', type: 'text', required: false, step: 0 },
      { key: 'number', label: 'Número exterior', type: 'text', required: false, step: 0 },
      { key: 'interior_number', label: 'Número interior', type: 'text', required: false, step: 0 },
      { key: 'neighborhood', label: 'Colonia', type: 'text', required: false, step: 0 },
      { key: 'city', label: 'Ciudad', type: 'text', required: true, step: 0 },
      { key: 'state', label: 'Estado', type: 'text', required: true, step: 0 },
      { key: 'country', label: 'País', type: 'text', required: true, step: 0 },
      { key: 'zip_code', label: 'Código postal', type: 'text', required: false, step: 0 },
    ],
  },
] as const;
