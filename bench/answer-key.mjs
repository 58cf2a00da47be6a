/** How the load generators file a non-2xx answer: its status and the API's error `code` (or the start of a body that is not the API's). */
export function answerKey(status, body) {
  let code = '';
  try {
    code = JSON.parse(body).code ?? '';
  } catch {
    code = body.slice(0, 80);
  }
  return `${status} ${code}`;
}
