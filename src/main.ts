/** npm start: the API on the configured stores (SQLite in ./data by default), sample loaded when empty. */
import { loadConfig } from './config/config.js';
import { createService } from './server.js';
import { bootstrapIfEmpty } from './bootstrap.js';

async function main(): Promise<void> {
  const config = loadConfig(process.env);
  const service = await createService(config);
  await bootstrapIfEmpty(service, config);
  await service.listen(config.port, config.host);
  service.deps.logger.info({ port: config.port, listings: service.deps.listings.backend, access: service.deps.access.backend }, `listening on http://localhost:${config.port}/api/v1`);
  const stop = async () => {
    await service.close();
    process.exit(0);
  };
  process.once('SIGINT', stop);
  process.once('SIGTERM', stop);
}

main().catch((error) => {
  console.error(error);
  process.exit(1);
});
