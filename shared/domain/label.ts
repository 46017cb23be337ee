/** Labels (WhatsApp Business): a name and one of WhatsApp's 20 colours, tagging chats. */
import { z } from 'zod';

export const Label = z
  .object({
    id: z.string(),
    name: z.string(),
    /** `#RRGGBB`, from WhatsApp's palette of 20 label colours. */
    hexColor: z.string(),
  })
  .meta({ id: 'Label' });
export type Label = z.infer<typeof Label>;

/** WhatsApp's 20 label colours, by colour id. */
export const LABEL_COLORS = [
  '#FF9485',
  '#64C4FF',
  '#FFD429',
  '#DFAEF0',
  '#99B6C1',
  '#55CCB3',
  '#FF9DFF',
  '#D3A91D',
  '#6D7CCE',
  '#D7E752',
  '#00D0E2',
  '#FFC5C7',
  '#93CEAC',
  '#F74848',
  '#00A0F2',
  '#83E422',
  '#FFAF04',
  '#B5EBFF',
  '#9BA6FF',
  '#9368CF',
] as const;

/** The `#RRGGBB` of colour id `color` (WhatsApp's palette; an unknown id wraps around). */
export function hexColorOf(color: number): string {
  return (
    LABEL_COLORS[((color % LABEL_COLORS.length) + LABEL_COLORS.length) % LABEL_COLORS.length] ?? '#FF9485'
  );
}
