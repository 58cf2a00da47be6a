import type { RfcProblem } from './rules/rfc.ts';
import type { TaxProfileProblem } from './rules/sat-catalogues.ts';

/**
 * The words of Mexico's money: OXXO vouchers, SPEI transfers to a CLABE of
 * the customer's own, meses sin intereses and CFDI 4.0 invoices. Kept beside
 * the main catalogue (texts.ts) so this part reads as one.
 */

const rfcText: Record<RfcProblem, string> = {
  empty: 'Escribe tu RFC.',
  format: 'El RFC no tiene el formato correcto: son 13 caracteres para personas físicas (4 letras, 6 números de tu fecha de nacimiento y 3 de homoclave) o 12 para empresas.',
  date: 'El RFC no es válido: sus 6 números deben ser una fecha real (año, mes y día).',
  'check-digit': 'El RFC no es válido: su último carácter no corresponde al resto. Revísalo en tu Constancia de Situación Fiscal.',
  generic: 'Ese es el RFC genérico del público en general: escribe tu propio RFC, o no pidas factura y tu compra irá en la factura global del estudio.',
};

const persona = (kind: 'fisica' | 'moral' | undefined) => (kind === 'moral' ? 'una empresa (persona moral)' : 'una persona física');

/** What a customer reads when her tax profile cannot be used, field by field. */
export function taxProfileProblemText(p: TaxProfileProblem): string {
  switch (p.field) {
    case 'rfc':
      return rfcText[p.problem];
    case 'legal_name':
      return p.problem === 'empty'
        ? 'Escribe tu nombre o razón social tal como aparece en tu Constancia de Situación Fiscal.'
        : p.problem === 'too-long'
          ? 'El nombre o razón social es demasiado largo.'
          : 'Escribe la razón social sin el régimen societario (sin «S.A. de C.V.», «S. de R.L.» o «A.C.»), como la muestra tu Constancia de Situación Fiscal.';
    case 'tax_regime':
      return p.problem === 'unknown'
        ? 'Elige tu régimen fiscal de la lista.'
        : `Ese régimen fiscal no corresponde a ${persona(p.kind)}, que es lo que indica tu RFC. Elige el régimen de tu Constancia de Situación Fiscal.`;
    case 'cfdi_use':
      return p.problem === 'unknown'
        ? 'Elige el uso que le darás a la factura.'
        : p.problem === 'wrong-persona'
          ? `Ese uso de CFDI no aplica para ${persona(p.kind)}. Elige otro uso.`
          : 'Ese uso de CFDI no está permitido con tu régimen fiscal. Para clases, lo usual es «Gastos en general» o «Sin efectos fiscales».';
    case 'postcode':
      return 'El código postal fiscal son 5 números, el de tu Constancia de Situación Fiscal.';
  }
}

export const mxTexts = {
  taxProfile: {
    title: 'Datos fiscales',
    intro: 'Para pedir facturas de tus compras. Escribe los datos exactamente como aparecen en tu Constancia de Situación Fiscal.',
    empty: 'Aún no tienes datos fiscales. Agrégalos para poder pedir facturas.',
    rfc: 'RFC',
    legalName: 'Nombre o razón social',
    legalNameHint: 'Tal como aparece en tu Constancia de Situación Fiscal, sin «S.A. de C.V.».',
    regime: 'Régimen fiscal',
    use: 'Uso del CFDI',
    postcode: 'Código postal fiscal',
    email: 'Correo para recibir facturas',
    emailHint: 'Si lo dejas vacío, usamos el correo de tu cuenta.',
    saved: 'Datos fiscales guardados.',
    add: 'Agregar datos fiscales',
    edit: 'Editar',
    remove: 'Quitar datos fiscales',
    removed: 'Datos fiscales eliminados.',
    persona: (kind: 'fisica' | 'moral') => (kind === 'moral' ? 'Persona moral' : 'Persona física'),
  },
  invoice: {
    column: 'Factura',
    request: 'Solicitar factura',
    requested: 'Factura solicitada',
    statePending: 'Factura en proceso',
    statePendingPac: 'Factura pendiente: el estudio aún no termina de configurar su facturación. Te la enviaremos en cuanto esté lista.',
    stateStamped: 'Facturada',
    stateFailed: 'No se pudo timbrar',
    stateCancelled: 'Factura cancelada',
    stateCancelling: 'Cancelación en proceso',
    stateGlobal: 'En factura global',
    stateNone: 'Sin factura',
    creditNote: 'Nota de crédito',
    downloadPdf: 'PDF',
    downloadXml: 'XML',
    windowUntil: (date: string) => `Puedes pedir la factura hasta el ${date}.`,
    windowClosed: (date: string) => `El plazo para pedir la factura de esta compra terminó el ${date}. La venta se incluyó en la factura global del estudio.`,
    needsProfile: 'Para pedir la factura primero agrega tus datos fiscales en Mi Información.',
    goToProfile: 'Ir a mis datos fiscales',
    confirmTitle: 'Solicitar factura',
    confirmText: (name: string, rfc: string) => `La factura se emitirá a nombre de ${name} (RFC ${rfc}) con los datos fiscales de Mi Información.`,
    confirm: 'Solicitar',
    sentByEmail: (email: string) => `Te enviaremos el PDF y el XML a ${email}.`,
    requestedToast: 'Tu solicitud de factura quedó registrada.',
    failedReason: (reason: string) => `No se pudo timbrar: ${reason}`,
    issueAtDesk: 'Facturar',
    retry: 'Reintentar',
    uuid: 'Folio fiscal (UUID)',
  },
  checkout: {
    oxxo: 'Efectivo en OXXO',
    oxxoHint: 'Te damos una ficha con referencia para pagar en cualquier OXXO. Tu compra se confirma cuando OXXO nos avisa del pago (a más tardar el siguiente día hábil).',
    oxxoPay: 'Generar ficha OXXO',
    oxxoAmountLimits: 'OXXO acepta pagos de $10.00 a $10,000.00 MXN; para este paquete elige otra forma de pago.',
    spei: 'Transferencia SPEI',
    speiHint: 'Te damos una CLABE solo para ti: transfiere desde tu banca en línea y tu compra se confirma en cuanto llega el dinero.',
    speiPay: 'Ver datos para transferir',
    installmentsTitle: 'Meses sin intereses',
    installmentsChoose: 'Elige cómo pagar con esta tarjeta',
    singlePayment: (amount: string) => `Una sola exhibición de ${amount}`,
    installmentOption: (count: number, monthly: string) => `${count} meses sin intereses de ${monthly}`,
    installmentsFrom: (amount: string) => `Meses sin intereses con tarjetas de crédito participantes en compras desde ${amount}.`,
    installmentsNone: 'Esta tarjeta no tiene meses sin intereses; se cobrará en una sola exhibición.',
    installmentsContinue: 'Pagar',
    trialNoVoucher: 'La prueba gratis necesita una tarjeta para el primer cargo; OXXO y transferencia no están disponibles para ella.',
  },
  thanks: {
    oxxoHeading: 'Paga tu ficha en cualquier OXXO',
    oxxoReference: 'Referencia',
    oxxoAmount: 'Monto a pagar',
    oxxoExpires: 'Vence',
    oxxoSteps: 'Muestra el código de barras o dicta la referencia en caja y paga en efectivo. OXXO cobra una comisión por el servicio. Guarda tu comprobante.',
    oxxoHeld: 'Tu lugar queda apartado hasta que vence la ficha.',
    oxxoPrint: 'Ver ficha para imprimir',
    oxxoExpired: 'La ficha venció sin pago y tu lugar se liberó. Puedes comprar de nuevo cuando quieras.',
    speiHeading: 'Transfiere por SPEI',
    speiBank: 'Banco',
    speiClabe: 'CLABE',
    speiBeneficiary: 'Beneficiario',
    speiReference: 'Referencia',
    speiAmount: 'Monto',
    speiSteps: 'Usa tu banca en línea. La CLABE es solo tuya: cada transferencia a ella se abona a tus compras en el estudio.',
    speiReceived: (received: string, remaining: string) => `Recibimos ${received}; faltan ${remaining}. Transfiere el resto a la misma CLABE para completar tu compra.`,
    speiOverpaid: (extra: string) => `Recibimos ${extra} de más. Quedan a tu favor en tu CLABE del estudio y se usan en tu siguiente compra o renovación; si prefieres que te los devolvamos, pídelo en recepción.`,
    installmentsPlan: (count: number, monthly: string) => `${count} meses sin intereses de ${monthly}`,
    installments: 'Pago',
    plan: 'Plan',
  },
  methods: {
    oxxo: 'OXXO',
    spei: 'Transferencia SPEI',
  },
  renewals: {
    voucherReady: 'Tu ficha para renovar',
    transferReady: 'Tus datos para renovar',
  },
  fiscalSettings: {
    tab: 'Facturación',
    studioGroup: 'Datos fiscales del estudio',
    studioIntro: 'Como aparecen en la Constancia de Situación Fiscal del estudio. Con ellos se emiten las facturas (CFDI 4.0).',
    productsGroup: 'Claves del SAT y del impuesto',
    productsIntro: 'La clave de producto o servicio de cada venta y el IVA que incluyen los precios.',
    customersGroup: 'Facturas a clientes y factura global',
    customersIntro: 'Hasta cuándo puede un cliente pedir factura, y cada cuánto se emite la factura global con las ventas que nadie facturó.',
    pacTitle: 'Proveedor de facturación (PAC)',
    pacIntro: 'Las facturas se timbran con Facturapi. La llave secreta se escribe pero no se vuelve a mostrar.',
    pacKey: 'Llave secreta de Facturapi',
    pacKeySet: 'Llave guardada',
    pacKeyNotSet: 'Sin llave: las facturas se guardan como pendientes y se timbran en cuanto configures la llave.',
    pacWebhookSecret: 'Secreto del webhook de Facturapi',
    pacSaved: 'Proveedor de facturación guardado.',
    pacPending: (n: number) => (n === 1 ? '1 factura pendiente de timbrar.' : `${n} facturas pendientes de timbrar.`),
  },
} as const;
