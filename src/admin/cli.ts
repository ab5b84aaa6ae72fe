/**
 * npm run admin -- keys create --account <id> --offer <offer> [--created-at YYYY-MM-DD] [--history-days N] [--name N]
 * npm run admin -- keys revoke <key|prefix>      npm run admin -- keys block <key|prefix>
 * npm run admin -- accounts list
 * npm run admin -- access copy-to-redis           every account and key of DATA_DIR's access file into REDIS_URL's Redis
 * Works on the configured access store (Redis when REDIS_URL is set, else the SQLite file in DATA_DIR).
 */
import { parseArgs } from 'node:util';
import { existsSync, mkdirSync } from 'node:fs';
import { loadConfig } from '../config/config.js';
import { loadOffers } from '../api/access/offers.js';
import { createAccessBackend } from '../open-access.js';
import { AdminError, copyAccess, createKey, listAccounts, setKeyStatus } from './commands.js';

async function main(argv: string[]): Promise<number> {
  const config = loadConfig(process.env);
  mkdirSync(config.dataDir, { recursive: true });
  const offers = loadOffers();
  const backend = await createAccessBackend({ redisUrl: config.redisUrl, keyPrefix: config.redisKeyPrefix, accessFile: config.accessFile, offers });
  try {
    const [group, action, ...rest] = argv;
    const { values, positionals } = parseArgs({
      args: rest,
      allowPositionals: true,
      options: {
        account: { type: 'string' },
        offer: { type: 'string' },
        'created-at': { type: 'string' },
        'history-days': { type: 'string' },
        name: { type: 'string' },
      },
    });
    if (group === 'keys' && action === 'create') {
      if (!values.account || !values.offer) throw new AdminError('keys create needs --account and --offer');
      const historyDays = values['history-days'] !== undefined ? Number(values['history-days']) : undefined;
      console.log(
        JSON.stringify(
          await createKey(backend.access, offers, {
            account: values.account,
            offer: values.offer,
            createdAt: values['created-at'],
            historyDays,
            name: values.name,
          }),
        ),
      );
      return 0;
    }
    if (group === 'keys' && (action === 'revoke' || action === 'block')) {
      if (!positionals[0]) throw new AdminError(`keys ${action} needs a key or its prefix`);
      const changed = await setKeyStatus(backend.access, positionals[0], action === 'revoke' ? 'revoked' : 'blocked');
      console.log(JSON.stringify({ [action === 'revoke' ? 'revoked' : 'blocked']: changed }));
      return 0;
    }
    if (group === 'access' && action === 'copy-to-redis') {
      if (!config.redisUrl) throw new AdminError('access copy-to-redis needs REDIS_URL (the target); the source is the access file of DATA_DIR');
      if (!existsSync(config.accessFile)) throw new AdminError(`no access file to copy from at ${config.accessFile}`);
      const source = await createAccessBackend({ redisUrl: null, accessFile: config.accessFile, offers });
      try {
        console.log(JSON.stringify(await copyAccess(source.access, backend.access)));
      } finally {
        await source.close();
      }
      return 0;
    }
    if (group === 'accounts' && action === 'list') {
      console.log(JSON.stringify(await listAccounts(backend.access), null, 2));
      return 0;
    }
    throw new AdminError('usage: admin keys create|revoke|block ... | admin accounts list | admin access copy-to-redis');
  } catch (error) {
    if (error instanceof AdminError) {
      console.error(error.message);
      return 2;
    }
    throw error;
  } finally {
    await backend.close();
  }
}

main(process.argv.slice(2)).then(
  (code) => {
    process.exitCode = code;
  },
  (error) => {
    console.error(error);
    process.exitCode = 1;
  },
);
