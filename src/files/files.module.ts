import { Module } from '@nestjs/common';
import { resolve } from 'node:path';
import { AppsModule } from '../apps/apps.module.js';
import { BillingModule } from '../billing/billing.module.js';
import { PeriodicModule } from '../common/periodic/periodic.module.js';
import { AppConfig } from '../config/app-config.js';
import { BLOB_STORE, type BlobStore } from './blob-store.js';
import { FilesSweep } from './files-sweep.service.js';
import { FilesController } from './files.controller.js';
import { FilesRepository } from './files.repository.js';
import { FilesService } from './files.service.js';
import { FolderBlobStore } from './folder-blob-store.js';
import { parseStorageUrl, S3BlobStore } from './s3-blob-store.js';

/** Uploaded files: the blob store (picked by STORAGE_URL), the `files` table, `PUT /v1/files/:sha256`, the sweep. */
@Module({
  imports: [AppsModule, BillingModule, PeriodicModule],
  controllers: [FilesController],
  providers: [
    { provide: BLOB_STORE, useFactory: (config: AppConfig): Promise<BlobStore> => createBlobStore(config), inject: [AppConfig] },
    FilesRepository,
    FilesService,
    FilesSweep,
  ],
  exports: [BLOB_STORE, FilesService, FilesSweep],
})
export class FilesModule {}

/** STORAGE_URL's store: S3 (`s3://…`), or unset a folder under DATA_DIR. */
export async function createBlobStore(config: AppConfig): Promise<BlobStore> {
  if (config.STORAGE_URL) {
    const location = parseStorageUrl(config.STORAGE_URL);
    return S3BlobStore.connect({ ...location, region: location.region ?? config.AWS_REGION });
  }
  return new FolderBlobStore(resolve(config.DATA_DIR, 'files'));
}
