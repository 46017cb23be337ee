/** Renders a QR payload as the PNG data URL that the API and the `session.qr` event carry. */
import QRCode from 'qrcode';

export function renderQrDataUrl(payload: string): Promise<string> {
  return QRCode.toDataURL(payload, { errorCorrectionLevel: 'M', margin: 1, width: 264 });
}
