import { connectDb } from './db';
import { nightlyRollup } from './services/scoreService';

const DAY_MS = 24 * 3600 * 1000;

async function main() {
  await connectDb();
  setInterval(() => {
    nightlyRollup().catch((err) => console.error('nightly rollup failed', err));
  }, DAY_MS);
}

main();
