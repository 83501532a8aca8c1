import { QRCodeSVG } from 'qrcode.react';

/**
 * The referral link as a QR code: plain SVG (no injected stylesheet, which the page's CSP refuses),
 * dark on white with a quiet zone in both themes, so any camera reads it.
 */
export function InviteQr({ value, label }: { value: string; label: string }) {
  // A QR code scans reliably only dark on light, whatever the theme: the one colour that is not a token.
  // eslint-disable-next-line local/no-literal-colour
  return <QRCodeSVG value={value} size={160} level="M" marginSize={4} bgColor="#ffffff" fgColor="#000000" title={label} role="img" aria-label={label} data-testid="referral-qr" />;
}
