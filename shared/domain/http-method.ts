/** The HTTP methods the API's routes use (functions/http/route.ts; engine operations name theirs too). */
export type HttpMethod = 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE';
