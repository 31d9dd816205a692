import { SMTPServer } from 'smtp-server'

/** A real SMTP peer; `refuse` recipients are answered with a temporary failure that many times. */
export async function startSmtp(refuse = 0) {
  const received: Buffer[] = []
  let refusals = refuse
  const server = new SMTPServer({
    authOptional: true,
    disabledCommands: ['STARTTLS'],
    logger: false,
    onRcptTo(_address, _session, callback) {
      if (refusals > 0) {
        refusals -= 1
        const error = new Error('Mailbox busy, try again later') as Error & { responseCode: number }
        error.responseCode = 451
        return callback(error)
      }
      callback()
    },
    onData(stream, _session, callback) {
      const chunks: Buffer[] = []
      stream.on('data', (c: Buffer) => chunks.push(c))
      stream.on('end', () => {
        received.push(Buffer.concat(chunks))
        callback()
      })
    },
  })
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
  const address = server.server.address()
  const port = typeof address === 'object' && address ? address.port : 0
  return {
    url: `smtp://127.0.0.1:${port}`,
    received,
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  }
}
