import { Module } from '@nestjs/common';
import { AnalyticsModule } from '../analytics/analytics.module.js';
import { SplitAssignment } from './split-assignment.js';
import { SplitRepository } from './split.repository.js';

/** The running split tests as serving reads them (site origins, `/p/<slug>/`): the repository and the visitor's variant. */
@Module({
  imports: [AnalyticsModule],
  providers: [SplitRepository, SplitAssignment],
  exports: [SplitRepository, SplitAssignment],
})
export class SplitsModule {}
