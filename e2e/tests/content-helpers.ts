import { expect, type APIRequestContext, type Page } from './fixtures.ts';
import { apiLogin, bearer } from './booking-helpers.ts';

export { apiLogin, bearer };

/** The app configuration as a key → value map (GET /api/appconfig). */
export async function readConfig(request: APIRequestContext): Promise<Record<string, string>> {
  const answer = await request.get('/api/appconfig');
  expect(answer.ok()).toBeTruthy();
  const { config } = (await answer.json()) as { config: { key: string; value: string }[] };
  return Object.fromEntries(config.map(({ key, value }) => [key, value]));
}

/**
 * Changes the configuration this page receives, leaving the studio's as it is.
 * The server writes it into every page (a JSON script, id portal-state,
 * decision 026) and the app reads GET /api/appconfig when it asks again:
 * both are patched. Call before the page loads.
 */
export async function patchPageConfig(page: Page, values: Record<string, string>): Promise<void> {
  const patched = (config: { key: string; value: string }[]) => [
    ...config.filter((entry) => !(entry.key in values)),
    ...Object.entries(values).map(([key, value]) => ({ key, value })),
  ];
  await page.route('**/api/appconfig', async (route) => {
    if (route.request().method() !== 'GET') return route.fallback();
    const answer = await route.fetch();
    const body = (await answer.json()) as { config: { key: string; value: string }[] };
    body.config = patched(body.config);
    await route.fulfill({ response: answer, json: body });
  });
  await page.route('**/*', async (route) => {
    if (route.request().resourceType() !== 'document') return route.fallback();
    const answer = await route.fetch();
    const html = await answer.text();
    const state = /(<script type="application\/json" id="portal-state">)([\s\S]*?)(<\/script>)/.exec(html);
    if (!state) return route.fulfill({ response: answer, body: html });
    const parsed = JSON.parse(state[2] ?? '{}') as { appconfig?: { config: { key: string; value: string }[] } };
    if (parsed.appconfig) parsed.appconfig.config = patched(parsed.appconfig.config);
    const json = JSON.stringify(parsed).replace(/</g, '\\u003c');
    await route.fulfill({ response: answer, body: html.replace(state[0], () => `${state[1]}${json}${state[3]}`) });
  });
}

/** PUT /api/appconfig as the admin. */
export async function writeConfig(request: APIRequestContext, adminToken: string, values: Record<string, string>): Promise<void> {
  const answer = await request.put('/api/appconfig', {
    headers: bearer(adminToken),
    data: { config: Object.entries(values).map(([key, value]) => ({ key, value })) },
  });
  expect(answer.ok(), await answer.text()).toBeTruthy();
}

export interface CreatedPage {
  page_id: number;
  slug: string;
  title: string;
}

/**
 * Runs `work` with some of the studio's settings changed, and puts back what they were afterwards (also when it
 * fails): a spec that needs a setting of its own leaves the next spec the studio it found.
 */
export async function withConfig<T>(request: APIRequestContext, adminToken: string, values: Record<string, string>, work: () => Promise<T>): Promise<T> {
  const before = await readConfig(request);
  await writeConfig(request, adminToken, values);
  try {
    return await work();
  } finally {
    await writeConfig(request, adminToken, Object.fromEntries(Object.keys(values).map((key) => [key, before[key] ?? ''])));
  }
}

/** POST /api/pages as the admin. */
export async function createPage(
  request: APIRequestContext,
  adminToken: string,
  page: { slug: string; title: string; content: string; required?: boolean; order?: number },
): Promise<CreatedPage> {
  const answer = await request.post('/api/pages', { headers: bearer(adminToken), data: page });
  expect(answer.ok(), await answer.text()).toBeTruthy();
  return ((await answer.json()) as { page: CreatedPage }).page;
}

export async function removePage(request: APIRequestContext, adminToken: string, pageId: number): Promise<void> {
  const answer = await request.delete(`/api/pages/${pageId}`, { headers: bearer(adminToken) });
  expect(answer.ok(), await answer.text()).toBeTruthy();
}

/**
 * A page customers accepted cannot be deleted (decision 014): as the 409 tells
 * the admin, it is unmarked as required and emptied, so it leaves the footer
 * and asks nobody to accept it, and the acceptances stay on record.
 */
export async function retirePage(request: APIRequestContext, adminToken: string, pageId: number): Promise<void> {
  const answer = await request.put('/api/pages', { headers: bearer(adminToken), data: { page_id: pageId, required: false, content: null } });
  expect(answer.ok(), await answer.text()).toBeTruthy();
}

/** A suffix that keeps slugs unique across re-runs against the same data. */
export const uniqueSuffix = () => `${Date.now().toString(36)}${Math.floor(Math.random() * 1000)}`;
