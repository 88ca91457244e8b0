/**
 * The mark that lets Next's send path write an answer whose body is already in memory as one write with
 * its length (`patches/next+16.4.6.patch`, decision 0014), instead of piping it through a web stream. The
 * patch once read the body from undici's state on the Response; from Node 24 on that state is private,
 * so the body is named here, where the Response is made. A Response made anywhere else is piped as Next
 * pipes it.
 */
const IN_MEMORY_BODY = Symbol.for('carebase.inMemoryBody');

/** `new Response(body, init)`, marked with its body for the one-write send path. */
export function answer(body: string | null, init: ResponseInit): Response {
  const response = new Response(body, init);
  if (body !== null) (response as Response & { [IN_MEMORY_BODY]?: string })[IN_MEMORY_BODY] = body;
  return response;
}

/** `Response.json(value, init)`, marked: `content-type: application/json` unless `init` names another. */
export function answerJson(value: unknown, init: ResponseInit = {}): Response {
  const headers = new Headers(init.headers);
  if (!headers.has('content-type')) headers.set('content-type', 'application/json');
  return answer(JSON.stringify(value), { ...init, headers });
}
