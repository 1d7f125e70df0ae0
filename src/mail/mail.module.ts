import { Module } from '@nestjs/common';
import { Mailer } from './mailer.js';

/** E-mail out over SMTP_URL: `Mailer.send({ to, subject, text, html })`. */
@Module({ providers: [Mailer], exports: [Mailer] })
export class MailModule {}
