/** The data host's S3-protocol server (the one the tests use): `tsx s3rver-host.ts <dir> <address> <port>`. */
import S3rver from 's3rver';

const [directory, address, port] = process.argv.slice(2);
const server = new S3rver({ address: address!, port: Number(port), silent: true, directory: directory! });
await server.run();
console.log('s3rver ready');
const stop = (): void => void server.close().then(() => process.exit(0));
process.once('SIGTERM', stop);
process.once('SIGINT', stop);
