/** The part of s3rver 3's API the upload-store tests use (the package ships no types). */
declare module 's3rver' {
  export interface S3rverOptions {
    address?: string;
    port?: number;
    silent?: boolean;
    /** Where the objects are kept (`<directory>/<bucket>/<key>._S3rver_object`). */
    directory?: string;
    configureBuckets?: { name: string; configs: (string | Buffer)[] }[];
  }
  export default class S3rver {
    constructor(options: S3rverOptions);
    /** Listens; resolves with the server's address. */
    run(): Promise<{ address: string; port: number }>;
    close(): Promise<void>;
  }
}
