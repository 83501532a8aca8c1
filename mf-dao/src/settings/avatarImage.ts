/** The side of the square the browser uploads. */
export const AVATAR_SIDE = 256;

export interface CropArea {
  x: number;
  y: number;
  width: number;
  height: number;
}

/** Decodes a picked file; a file the browser cannot read as an image is refused here. */
export function loadImage(src: string): Promise<HTMLImageElement> {
  return new Promise((resolve, reject) => {
    const img = new Image();
    img.onload = () => resolve(img);
    img.onerror = () => reject(new Error('not an image'));
    img.src = src;
  });
}

/**
 * Draws the cropped part into a 256 × 256 canvas and re-encodes it (WebP, else JPEG), so only a
 * small square leaves the browser whatever was picked. Answers base64 without the data: prefix.
 */
export async function croppedSquare(img: HTMLImageElement, area: CropArea): Promise<{ base64: string; dataUrl: string }> {
  const canvas = document.createElement('canvas');
  canvas.width = AVATAR_SIDE;
  canvas.height = AVATAR_SIDE;
  const ctx = canvas.getContext('2d');
  if (!ctx) throw new Error('no canvas');
  ctx.drawImage(img, area.x, area.y, area.width, area.height, 0, 0, AVATAR_SIDE, AVATAR_SIDE);
  let dataUrl = canvas.toDataURL('image/webp', 0.85);
  // Browsers without a WebP encoder answer PNG: JPEG is smaller then.
  if (!dataUrl.startsWith('data:image/webp')) dataUrl = canvas.toDataURL('image/jpeg', 0.85);
  return { base64: dataUrl.slice(dataUrl.indexOf(',') + 1), dataUrl };
}
