/**
 * The version of a required page a customer accepted (decision 122): the one she was shown, when the caller knows it
 * (the portal, the desk), never beyond the page's current one; else the current one. The server and the desk's
 * replica record acceptances by this one rule.
 */
export function versionAccepted(current: number, pageId: number, versionsRead: readonly { page_id: number; version: number }[] | undefined): number {
  const read = versionsRead?.find((v) => v.page_id === pageId)?.version;
  return read === undefined ? current : Math.min(read, current);
}
