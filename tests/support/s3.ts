/**
 * A real S3-compatible server on loopback for tests: s3rver (pure npm, files on disk), with one
 * bucket. Its fixed credentials are S3RVER / S3RVER.
 */
import S3rver from 's3rver';
import { tempDir } from './temp.ts';

export async function startS3(bucket = 'uploads') {
  const server = new S3rver({
    address: '127.0.0.1',
    port: 0,
    silent: true,
    directory: await tempDir('s3rver'),
    configureBuckets: [{ name: bucket, configs: [] }],
  });
  const { port } = await server.run();
  const endpoint = `http://127.0.0.1:${port}`;
  return {
    endpoint,
    bucket,
    options: {
      bucket,
      region: 'us-east-1',
      endpoint,
      forcePathStyle: true,
      accessKeyId: 'S3RVER',
      secretAccessKey: 'S3RVER',
    },
    close: () => {
      // The SDK keeps connections alive: end them, or close waits for their idle timeout.
      const http = (server as unknown as { httpServer?: { closeAllConnections(): void } }).httpServer;
      const closing = server.close();
      http?.closeAllConnections();
      return closing;
    },
  };
}
