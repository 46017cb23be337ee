import type { z } from 'zod';
import { type AnyRoute, defineRoute } from '#functions/http/route.js';
import type { MediaSource } from '#shared/domain/send-requests.js';
import {
  PostImageStatusBody,
  PostTextStatusBody,
  PostVideoStatusBody,
  PostVoiceStatusBody,
  StatusPosted,
} from '#shared/domain/status-requests.js';
import { postStatus, type StatusDraft } from '#shared/use-cases/statuses/post-status.js';
import { SessionParams } from './params.js';

/** A media status's body: the file by `url` or `data`, and the kind's own fields. */
type MediaBody = z.output<typeof PostImageStatusBody> | z.output<typeof PostVoiceStatusBody>;

function mediaDraft(type: 'image' | 'video' | 'voice', body: MediaBody): StatusDraft {
  const source: MediaSource = 'url' in body ? { url: body.url } : { data: body.data };
  return {
    type,
    source,
    mimetype: body.mimetype,
    ...('caption' in body ? { caption: body.caption } : {}),
    ...('backgroundColor' in body ? { backgroundColor: body.backgroundColor } : {}),
  };
}

/** The common parts of the posting routes: 201 with the status's id and times, errors of a media send. */
function postRoute<B extends z.ZodType<{ recipients: string[] }>>(
  path: string,
  summary: string,
  body: B,
  draftOf: (body: z.output<B>) => StatusDraft,
) {
  return defineRoute({
    method: 'POST',
    path: `/api/sessions/{sessionId}/status/${path}`,
    summary,
    tag: 'Status',
    auth: { role: 'operator' },
    params: SessionParams,
    body,
    response: StatusPosted,
    success: 201,
    errors: [404, 409, 413],
    capability: 'status_post',
    run: ({ deps, caller, params, body: parsed }) => {
      const request = parsed as z.output<B>;
      return postStatus(deps, caller, params.sessionId, draftOf(request), request.recipients);
    },
  });
}

/** POST …/status/send-{text,image,video,voice}: posts a status update to the recipients named. */
export const postStatusRoutes: readonly AnyRoute[] = [
  postRoute('send-text', 'Post a text status', PostTextStatusBody, ({ recipients: _, ...text }) => ({
    type: 'text',
    ...text,
  })),
  postRoute('send-image', 'Post an image status', PostImageStatusBody, (body) => mediaDraft('image', body)),
  postRoute('send-video', 'Post a video status', PostVideoStatusBody, (body) => mediaDraft('video', body)),
  postRoute('send-voice', 'Post a voice status', PostVoiceStatusBody, (body) => mediaDraft('voice', body)),
];
