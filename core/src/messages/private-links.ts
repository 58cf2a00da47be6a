/**
 * A link a message carries that acts as the customer: a password reset, the
 * "crea tu contraseña" invitation, an e-mail change confirmation, a stop link.
 * Its token is the customer's alone: staff read every message the studio sends
 * (the desk's Mensajes, /api/outbox) but never these links, which would let
 * them sign in as her or change her account. The message itself still goes
 * out whole; only what staff are shown is cut.
 */
const tokenLink = /https?:\/\/[^\s"'<>]*?[?&]token=[^\s"'<>]+/g;

/** What staff see in place of a private link. */
export const privateLinkText = '[enlace privado: solo lo recibe el cliente]';

/** The text with every link that carries a token replaced by privateLinkText. */
export function withoutPrivateLinks(text: string): string {
  return text.replace(tokenLink, privateLinkText);
}
