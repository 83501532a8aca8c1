import { eq } from 'drizzle-orm';
import { apiBasePath, apiMessages as M, AVATAR_MAX_BYTES } from '@app/contracts';
import type { Db } from '../db/client';
import { avatars, users } from '../db/schema';
import { badRequest } from '../http/errors';
import { imageTypeOf } from './image';

/** Where an avatar is served; the version in the query lets browsers cache each image for good. */
export const avatarUrl = (userId: string, version: Date) => `${apiBasePath}/avatars/${userId}?v=${version.getTime()}`;

/**
 * Checks an uploaded avatar by its content and stores it. A refused file changes nothing: the
 * old avatar stays.
 */
export async function saveAvatar(db: Db, userId: string, base64: string) {
  const bytes = Buffer.from(base64, 'base64');
  if (bytes.length > AVATAR_MAX_BYTES) throw badRequest(M.avatarTooLarge, 'AVATAR_TOO_LARGE', { image: M.avatarTooLarge });
  const contentType = imageTypeOf(bytes);
  if (!contentType) throw badRequest(M.avatarInvalid, 'AVATAR_INVALID', { image: M.avatarInvalid });
  const updatedAt = new Date();
  return db.transaction(async (tx) => {
    await tx
      .insert(avatars)
      .values({ userId, contentType, bytes, updatedAt })
      .onConflictDoUpdate({ target: avatars.userId, set: { contentType, bytes, updatedAt } });
    const [user] = await tx.update(users).set({ avatar: avatarUrl(userId, updatedAt), updatedAt }).where(eq(users.id, userId)).returning();
    return user!;
  });
}

export async function readAvatar(db: Db, userId: string) {
  const [row] = await db.select().from(avatars).where(eq(avatars.userId, userId));
  return row;
}
