import { Module } from '@nestjs/common';
import { PeriodicJobs } from './periodic-jobs.js';

/** PeriodicJobs, one instance: import this module where a service registers a job (see PeriodicJobs on why it is not global). */
@Module({ providers: [PeriodicJobs], exports: [PeriodicJobs] })
export class PeriodicModule {}
