import { Module } from '@nestjs/common';
import { resolve } from 'node:path';
import { AppConfig } from '../config/app-config.js';
import { BLOB_STORE, BlobStore } from './blob-store.js';
import { FolderBlobStore } from './folder-blob-store.js';

/** Uploaded files: the blob store (picked by STORAGE_URL), the `files` table, `PUT /v1/files/:sha256`. */
@Module({
  providers: [{ provide: BLOB_STORE, useFactory: (config: AppConfig): BlobStore => createBlobStore(config), inject: [AppConfig] }],
  exports: [BLOB_STORE],
})
export class FilesModule {}

export function createBlobStore(config: AppConfig): BlobStore {
  return new FolderBlobStore(resolve(config.DATA_DIR, 'files'));
}
