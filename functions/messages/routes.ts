/** The routes of the messages resource group (its Lambda), in the order the router tries them. */
import type { AnyRoute } from '#functions/http/route.js';
import { cancelBatchRoute } from './cancel-batch.route.js';
import { chatHistoryRoute } from './chat-history.route.js';
import { deleteMessageRoute } from './delete-message.route.js';
import { editMessageRoute } from './edit-message.route.js';
import { forwardRoute } from './forward.route.js';
import { getBatchRoute } from './get-batch.route.js';
import { getMediaRoute } from './get-media.route.js';
import { listMessagesRoute } from './list-messages.route.js';
import { listReactionsRoute } from './list-reactions.route.js';
import { reactRoute } from './react.route.js';
import { replyRoute } from './reply.route.js';
import { searchMessagesRoute } from './search-messages.route.js';
import { sendAudioRoute } from './send-audio.route.js';
import { sendBulkRoute } from './send-bulk.route.js';
import { sendContactRoute } from './send-contact.route.js';
import { sendDocumentRoute } from './send-document.route.js';
import { sendImageRoute } from './send-image.route.js';
import { sendLocationRoute } from './send-location.route.js';
import { sendStickerRoute } from './send-sticker.route.js';
import { sendTemplateRoute } from './send-template.route.js';
import { sendTextRoute } from './send-text.route.js';
import { sendVideoRoute } from './send-video.route.js';

export const messageRoutes: readonly AnyRoute[] = [
  listMessagesRoute,
  searchMessagesRoute,
  chatHistoryRoute,
  sendTextRoute,
  sendTemplateRoute,
  sendImageRoute,
  sendVideoRoute,
  sendAudioRoute,
  sendDocumentRoute,
  sendStickerRoute,
  sendLocationRoute,
  sendContactRoute,
  replyRoute,
  forwardRoute,
  reactRoute,
  editMessageRoute,
  deleteMessageRoute,
  listReactionsRoute,
  getMediaRoute,
  sendBulkRoute,
  getBatchRoute,
  cancelBatchRoute,
];
