import * as z from 'zod/mini';

// zod/mini loads no messages: where a schema sets none (a body that is not an object, a bad
// environment variable), the API answers and reports zod's English ones, as it did with classic zod.
// Server only: the browser bundles stay without the locale.
z.config(z.locales.en());
