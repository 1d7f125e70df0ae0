import { Module } from '@nestjs/common';
import { resolve } from 'node:path';
import { AppsModule } from '../apps/apps.module.js';
import { AppConfig } from '../config/app-config.js';
import { BLOB_STORE, BlobStore } from './blob-store.js';
import { FilesSweep } from './files-sweep.service.js';
import { FilesController } from './files.controller.js';
import { FilesRepository } from './files.repository.js';
import { FilesService } from './files.service.js';
import { FolderBlobStore } from './folder-blob-store.js';

/** Uploaded files: the blob store (picked by STORAGE_URL), the `files` table, `PUT /v1/files/:sha256`, the sweep. */
@Module({
  imports: [AppsModule],
  controllers: [FilesController],
  providers: [
    { provide: BLOB_STORE, useFactory: (config: AppConfig): BlobStore => createBlobStore(config), inject: [AppConfig] },
    FilesRepository,
    FilesService,
    FilesSweep,
  ],
  exports: [BLOB_STORE, FilesService, FilesSweep],
})
export class FilesModule {}

export function createBlobStore(config: AppConfig): BlobStore {
  return new FolderBlobStore(resolve(config.DATA_DIR, 'files'));
}
