import { expect, test, type Page, type Request } from './fixtures.ts';
import { apiLogin, bearer } from './booking-helpers.ts';
import { packageId } from './checkout-helpers.ts';
import { patchPageConfig } from './content-helpers.ts';
import { expectSignedIn, signIn } from './helpers.ts';

/**
 * The portal under its content-security policy: the landing, the checkout
 * (sandbox form, Stripe Elements and the PayPal buttons) and a video page
 * raise no policy violation, while a script from a host outside the policy
 * is blocked. And paying with the sandbox card form sends the server no card
 * number, CVC or expiry. The suite runs offline: every request leaving the
 * server's origin is aborted, and the browser checks the policy before it
 * makes a request, so a violation still shows.
 */

interface Violation {
  directive: string;
  blocked: string;
}

/** Collects securitypolicyviolation events (from the first script on) and the console's CSP errors; aborts requests to other origins. */
async function watchPolicy(page: Page) {
  await page.addInitScript(() => {
    const seen: { directive: string; blocked: string }[] = [];
    (window as unknown as { __violations: typeof seen }).__violations = seen;
    document.addEventListener('securitypolicyviolation', (e) => seen.push({ directive: e.effectiveDirective, blocked: e.blockedURI }));
  });
  const consoleErrors: string[] = [];
  page.on('console', (message) => {
    if (/Content[- ]Security[- ]Policy/i.test(message.text())) consoleErrors.push(message.text());
  });
  const outside: string[] = [];
  await page.route(
    (url) => url.hostname !== '127.0.0.1' && url.hostname !== 'localhost',
    async (route) => {
      outside.push(route.request().url());
      await route.abort('internetdisconnected');
    },
  );
  return {
    consoleErrors,
    /** Requests the page tried to send to other origins (so the policy let them through). */
    outside,
    violations: () => page.evaluate(() => (window as unknown as { __violations: Violation[] }).__violations),
  };
}

/** Loads `url` into the page as a script, a frame or a fetch, as a third party's SDK would. */
async function load(page: Page, kind: 'script' | 'frame' | 'connect', url: string) {
  await page.evaluate(
    async ({ kind, url }) => {
      if (kind === 'connect') {
        await fetch(url, { mode: 'no-cors' }).catch(() => undefined);
        return;
      }
      const element = document.createElement(kind === 'script' ? 'script' : 'iframe');
      element.setAttribute('src', url);
      document.body.append(element);
      await new Promise((resolve) => setTimeout(resolve, 50));
    },
    { kind, url },
  );
}

/** Rewrites the answers of tRPC queries (single or batched) for this page only. */
async function patchTrpc(page: Page, patches: Record<string, (data: Record<string, unknown>) => void>) {
  await page.route('**/trpc/**', async (route) => {
    const url = new URL(route.request().url());
    const names = decodeURIComponent(url.pathname.slice('/trpc/'.length)).split(',');
    if (route.request().method() !== 'GET' || !names.some((n) => n in patches)) return route.fallback();
    const answer = await route.fetch();
    const body = (await answer.json()) as { result?: { data: Record<string, unknown> } } | { result?: { data: Record<string, unknown> } }[];
    const results = Array.isArray(body) ? body : [body];
    names.forEach((name, i) => {
      const data = results[i]?.result?.data;
      if (data && patches[name]) patches[name](data);
    });
    await route.fulfill({ response: answer, json: body });
  });
}


test.describe('Content-security policy', () => {
  test('the landing raises no violation, and a script from outside the policy is blocked (the listener works)', async ({ page }) => {
    const policy = await watchPolicy(page);
    await page.goto('/');
    await expect(page.getByRole('heading', { level: 1 })).toBeVisible();
    await page.waitForLoadState('networkidle');
    expect(await policy.violations()).toEqual([]);
    expect(policy.consoleErrors).toEqual([]);

    await load(page, 'script', 'https://cdn.ajeno.example/robar.js');
    await load(page, 'frame', 'https://ajeno.example/marco');
    await load(page, 'connect', 'https://ajeno.example/exfiltrar');
    await expect.poll(async () => (await policy.violations()).map((v) => v.directive).sort()).toEqual(['connect-src', 'frame-src', 'script-src-elem']);
    expect((await policy.violations()).every((v) => v.blocked.includes('ajeno.example'))).toBe(true);
    // Blocked before the network: none of them reached the request layer.
    expect(policy.outside.filter((u) => u.includes('ajeno.example'))).toEqual([]);
  });

  test("what Stripe's, PayPal's and the video players' SDKs load is allowed", async ({ page }) => {
    const policy = await watchPolicy(page);
    await page.goto('/');
    await expect(page.getByRole('heading', { level: 1 })).toBeVisible();
    const thirdParties: ['script' | 'frame' | 'connect', string][] = [
      ['script', 'https://js.stripe.com/v3/'],
      ['script', 'https://b.js.stripe.com/v3/fingerprinted/js/elements.js'],
      ['frame', 'https://js.stripe.com/v3/elements-inner-card.html'],
      ['frame', 'https://b.js.stripe.com/v3/controller.html'],
      ['frame', 'https://hooks.stripe.com/redirect/authenticate/src_1'],
      ['connect', 'https://api.stripe.com/v1/payment_methods'],
      ['script', 'https://www.paypal.com/sdk/js?client-id=test&currency=MXN'],
      ['script', 'https://www.paypalobjects.com/api/checkout.js'],
      ['frame', 'https://www.paypal.com/smart/buttons'],
      ['frame', 'https://www.sandbox.paypal.com/smart/buttons'],
      ['connect', 'https://www.sandbox.paypal.com/xoplatform/logger/api/logger'],
      ['frame', 'https://www.youtube.com/embed/dQw4w9WgXcQ'],
      ['frame', 'https://player.vimeo.com/video/76979871'],
    ];
    for (const [kind, url] of thirdParties) await load(page, kind, url);
    await expect.poll(() => policy.outside.length).toBeGreaterThanOrEqual(thirdParties.length);
    expect(await policy.violations()).toEqual([]);
    expect(policy.consoleErrors).toEqual([]);
  });

  test('the checkout with the sandbox card form raises no violation', async ({ page, request }) => {
    const id = await packageId(request, '1 Clase');
    const policy = await watchPolicy(page);
    await signIn(page, 'cliente@estudio.demo');
    await expectSignedIn(page, /Mariana/);
    await page.goto(`/checkout/${id}`);
    await page.getByRole('radio', { name: /^(Tarjeta|Nueva tarjeta)$/ }).check();
    await expect(page.getByLabel('Número de tarjeta')).toBeVisible();
    expect(await policy.violations()).toEqual([]);
    expect(policy.consoleErrors).toEqual([]);
  });

  test('the checkout switched to Stripe Elements loads Stripe.js without a violation', async ({ page, request }) => {
    const id = await packageId(request, '1 Clase');
    const policy = await watchPolicy(page);
    // The studio's publishable key turns the card form into Stripe Elements (the answer is changed for this page only).
    await patchPageConfig(page, { stripe_public: 'pk_test_estudio_seguridad' });
    await signIn(page, 'cliente@estudio.demo');
    await expectSignedIn(page, /Mariana/);
    await page.goto(`/checkout/${id}`);
    await page.getByRole('radio', { name: /^(Tarjeta|Nueva tarjeta)$/ }).check();
    await expect.poll(() => policy.outside.some((u) => u.startsWith('https://js.stripe.com/'))).toBe(true);
    // No sandbox form: the card fields would be Stripe's frames.
    await expect(page.locator('input[name="cardnumber"]')).toHaveCount(0);
    expect(await policy.violations()).toEqual([]);
    expect(policy.consoleErrors).toEqual([]);
  });

  test('the checkout with PayPal enabled loads the PayPal SDK without a violation', async ({ page, request }) => {
    const id = await packageId(request, '1 Clase');
    const policy = await watchPolicy(page);
    await patchPageConfig(page, { paypal_enabled: 'true', paypal_client_id: 'sb-estudio-seguridad' });
    await patchTrpc(page, {
      'paymentMethods.list': (data) => {
        const methods = data.payment_methods as { provider: string }[];
        if (!methods.some((m) => m.provider === 'paypal')) {
          methods.push({ payment_method_id: 999, name: 'PayPal', description: 'Paga con tu cuenta de PayPal', provider: 'paypal' } as { provider: string });
        }
      },
    });
    await signIn(page, 'cliente@estudio.demo');
    await expectSignedIn(page, /Mariana/);
    await page.goto(`/checkout/${id}`);
    await page.getByRole('radio', { name: /PayPal/ }).check();
    await expect.poll(() => policy.outside.some((u) => u.startsWith('https://www.paypal.com/sdk/js'))).toBe(true);
    expect(await policy.violations()).toEqual([]);
    expect(policy.consoleErrors).toEqual([]);
  });

  test('a video page embeds its player without a violation', async ({ page, request }) => {
    const token = await apiLogin(request, 'ilimitado@estudio.demo');
    const answer = await request.get('/api/videos', { headers: bearer(token) });
    expect(answer.ok(), await answer.text()).toBeTruthy();
    const { videos } = (await answer.json()) as { videos: { video_id: number; name: string }[] };
    const video = videos.find((v) => v.name === 'Yin yoga para dormir mejor');
    expect(video, 'the seed has the Vimeo video').toBeDefined();

    const policy = await watchPolicy(page);
    await signIn(page, 'ilimitado@estudio.demo');
    await expectSignedIn(page, /Sofía/);
    await page.goto(`/mystudio/video/${video!.video_id}`);
    await expect(page.locator('iframe[title^="Reproductor"]')).toHaveAttribute('src', /^https:\/\/player\.vimeo\.com\//);
    await expect.poll(() => policy.outside.some((u) => u.startsWith('https://player.vimeo.com/'))).toBe(true);
    expect(await policy.violations()).toEqual([]);
    expect(policy.consoleErrors).toEqual([]);
  });
});

test.describe('Card data stays in the browser', () => {
  test('paying with the sandbox form sends no card number, CVC or expiry to the server', async ({ page, request }) => {
    const id = await packageId(request, '1 Clase');
    const sent: { url: string; body: string; headers: string }[] = [];
    const record = (r: Request) => sent.push({ url: r.url(), body: r.postData() ?? '', headers: JSON.stringify(r.headers()) });
    page.on('request', record);

    await signIn(page, 'cliente@estudio.demo');
    await expectSignedIn(page, /Mariana/);
    await page.goto(`/checkout/${id}`);
    await page.getByRole('radio', { name: /^(Tarjeta|Nueva tarjeta)$/ }).check();
    const documents = page.getByRole('checkbox', { name: /Acepto los siguientes documentos/ });
    if (await documents.count()) await documents.check();
    await page.getByLabel('Número de tarjeta').fill('4242 4242 4242 4242');
    await page.getByLabel('Vencimiento (MM/AA)').fill('11/2034');
    await page.getByLabel('CVC').fill('7391');
    const attempted = page.waitForResponse((r) => r.url().includes('checkout.attempt'));
    await page.getByRole('button', { name: 'Pagar Ahora' }).click();
    await attempted;

    const secrets = ['4242424242424242', '4242 4242 4242 4242', '4242%204242', '4242+4242', '7391', '11/2034', '11%2F2034', '112034'];
    const expectNoCardData = () => {
      for (const s of sent) {
        for (const secret of secrets) {
          expect(s.url, `${secret} in ${s.url}`).not.toContain(secret);
          expect(s.body, `${secret} in the body of ${s.url}`).not.toContain(secret);
          expect(s.headers, `${secret} in the headers of ${s.url}`).not.toContain(secret);
        }
      }
    };
    expectNoCardData();

    // Control: the recording saw the payment, which carried the browser-made token; and the payment went through.
    const payment = sent.filter((s) => /checkout\.(attempt|confirm)/.test(s.url));
    expect(payment.length).toBeGreaterThan(0);
    expect(payment.some((s) => s.body.includes('pm_card_visa'))).toBe(true);
    // The order page, not the toast: a toast may have come and gone while the requests were read.
    await expect(page.getByRole('heading', { name: '¡Gracias por tu compra!' })).toBeVisible();
    // And nothing sent after the payment (the thank-you page's queries) carries it either.
    expectNoCardData();
  });
});
