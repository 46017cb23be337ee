/** Renders a QR payload as the PNG data URL that the API and the `session.qr` event carry. */
import type QRCodeModule from 'qrcode';

/**
 * qrcode (with its PNG encoder) is imported when the first QR is rendered, not at start: about 35 ms that a gateway
 * whose sessions are linked already never needs.
 */
let qrcode: Promise<typeof QRCodeModule> | undefined;

export async function renderQrDataUrl(payload: string): Promise<string> {
  qrcode ??= import('qrcode').then((loaded) => loaded.default);
  const QRCode = await qrcode;
  return QRCode.toDataURL(payload, { errorCorrectionLevel: 'M', margin: 1, width: 264 });
}
