import argon2 from 'argon2';

export type Argon2Cost = { memoryKiB: number; timeCost: number; parallelism: number };

export function createPasswordHasher(cost: Argon2Cost) {
  const options = {
    type: argon2.argon2id,
    memoryCost: cost.memoryKiB,
    timeCost: cost.timeCost,
    parallelism: cost.parallelism,
  } as const;
  // Verified against when the account does not exist, so a miss costs as much time as a hit.
  const dummy = argon2.hash('not-a-real-password-Aa1!', options);
  return {
    hash: (password: string) => argon2.hash(password, options),
    async verify(hash: string | null | undefined, password: string): Promise<boolean> {
      try {
        if (!hash) {
          await argon2.verify(await dummy, password);
          return false;
        }
        return await argon2.verify(hash, password);
      } catch {
        return false;
      }
    },
  };
}
export type PasswordHasher = ReturnType<typeof createPasswordHasher>;
