import { mediaDraft, SendDocumentBody } from '#shared/domain/send-requests.js';
import { defineSendRoute } from './send-route.js';

/** POST …/messages/send-document: a document by `url` (fetched by the service) or base64 `data` with its `mimetype`. */
export const sendDocumentRoute = defineSendRoute({
  action: 'send-document',
  summary: 'Send a document',
  body: SendDocumentBody,
  request: (body) => mediaDraft('document', body),
});
