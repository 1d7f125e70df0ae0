import { Type } from '@nestjs/common';
import { ApiProperty } from '@nestjs/swagger';
import { Page } from './page.js';

/**
 * The list shape of every list route, `{ data: [...], nextCursor }`, documented for one item type:
 * `export class AppPageDto extends PageOf(AppDto) {}`.
 */
export function PageOf<T>(item: Type<T>): Type<Page<T>> {
  class PageDto implements Page<T> {
    @ApiProperty({ type: [item], description: 'Newest first' })
    data: T[];

    @ApiProperty({
      type: String,
      nullable: true,
      description: 'Pass as `cursor` to get the next page; null on the last page',
      example: 'WyIyMDI1LTExLTIyVDA0OjIwOjAwLjAwMFoiLCJhcHBfMDFKQzNaOFc1UTRNMEI3VDJLOVgxRDZGM0giXQ',
    })
    nextCursor: string | null;
  }
  return PageDto;
}
