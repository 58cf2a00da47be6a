import { describe, expect, it } from 'vitest';
import { loggableUrl } from '../../src/operations/request-log.ts';

/** What of a URL reaches the log (decision 075): everything but the codes and tokens. */
describe('a URL in the log', () => {
  it('keeps what was asked and hides one-time codes in the query string', () => {
    expect(loggableUrl('/api/single_class?start_date=2025-01-06&end_date=2025-01-12')).toBe('/api/single_class?start_date=2025-01-06&end_date=2025-01-12');
    expect(loggableUrl('/recuperar?token=abc.DEF-123')).toBe('/recuperar?token=[oculto]');
    expect(loggableUrl('/confirmar-correo?lang=es&oobCode=xyz&x=1')).toBe('/confirmar-correo?lang=es&oobCode=[oculto]&x=1');
    expect(loggableUrl('/api/messages/one-click?Token=abc')).toBe('/api/messages/one-click?Token=[oculto]');
    expect(loggableUrl('/api/discounts/code/BUENFIN?class_package_id=3')).toBe('/api/discounts/code/[oculto]?class_package_id=3');
  });

  it("hides a secret inside a tRPC call's JSON input, and the token of a calendar feed's path", () => {
    const input = encodeURIComponent(JSON.stringify({ token: 'secreto', channel: 'email' }));
    const logged = loggableUrl(`/trpc/messages.stopPreview?input=${input}`);
    expect(decodeURIComponent(logged)).toBe('/trpc/messages.stopPreview?input={"token":"[oculto]","channel":"email"}');
    const batch = encodeURIComponent(JSON.stringify({ 0: { code: 'PRIMERMES50' }, 1: { week: { start_date: '2025-01-06' } } }));
    expect(decodeURIComponent(loggableUrl(`/trpc/discounts.byCode,schedule.list?batch=1&input=${batch}`))).toBe(
      '/trpc/discounts.byCode,schedule.list?batch=1&input={"0":{"code":"[oculto]"},"1":{"week":{"start_date":"2025-01-06"}}}',
    );
    expect(loggableUrl('/api/calendar/9f8e7d6c5b4a.ics')).toBe('/api/calendar/[oculto]');
    expect(loggableUrl('/trpc/x?input=%7Bnot-json')).toBe('/trpc/x?input=[ilegible]');
  });
});
