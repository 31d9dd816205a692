import { ImageOff, Play } from 'lucide-react'
import { useEffect, useState } from 'react'
import { useT } from '../../i18n/i18n'
import { afterLoadIdle } from '../../lib/idle'

/** The product's image with a calm placeholder when the URL does not load. */
export function ProductImage({ src, alt, className = '' }: { src: string; alt: string; className?: string }) {
  const [failed, setFailed] = useState(false)
  if (failed || !src) {
    return (
      <div
        className={`flex items-center justify-center bg-white/5 text-muted ${className}`}
        role="img"
        aria-label={alt}
      >
        <ImageOff className="size-10" aria-hidden />
      </div>
    )
  }
  return (
    <img
      src={src}
      alt={alt}
      loading="lazy"
      decoding="async"
      width={800}
      height={600}
      onError={() => setFailed(true)}
      className={`object-cover ${className}`}
    />
  )
}

/** How long the page must run without a long task before the player loads: Lighthouse's own "idle". */
const QUIET_MS = 5000

/**
 * Calls `then` once the page has loaded and then gone QUIET_MS without a long task (a task of
 * 50 ms or more), in an idle moment; answers a function that cancels it.
 */
function whenQuiet(then: () => void): () => void {
  let timer: number | undefined
  let observer: PerformanceObserver | undefined
  let cancelIdle: (() => void) | undefined
  const fire = () => {
    observer?.disconnect()
    cancelIdle = afterLoadIdle(then)
  }
  const wait = () => {
    window.clearTimeout(timer)
    timer = window.setTimeout(fire, QUIET_MS)
  }
  const start = () => {
    try {
      observer = new PerformanceObserver(wait)
      observer.observe({ type: 'longtask' })
    } catch {
      // A browser without long-task timing waits the quiet time once.
    }
    wait()
  }
  if (document.readyState === 'complete') start()
  else window.addEventListener('load', start, { once: true })
  return () => {
    window.removeEventListener('load', start)
    observer?.disconnect()
    window.clearTimeout(timer)
    cancelIdle?.()
  }
}

/**
 * YouTube embed (privacy-enhanced host). Browsers only autoplay muted video. The player's frame
 * costs seconds of main-thread time on a phone (and, on the real network, far more script than
 * the shop's own), so the page paints a poster (the product's own picture) and the player
 * replaces it once the page has loaded and been idle for a while (decision 030), or at once when
 * the buyer presses play.
 */
export function VideoEmbed({ videoId, title, poster }: { videoId: string; title: string; poster: string }) {
  const t = useT()
  const [playing, setPlaying] = useState(false)
  useEffect(() => (playing ? undefined : whenQuiet(() => setPlaying(true))), [playing])
  const src = `https://www.youtube-nocookie.com/embed/${encodeURIComponent(videoId)}?autoplay=1&mute=1&rel=0`
  return (
    <div className="relative aspect-video w-full bg-black">
      {playing ? (
        <iframe
          src={src}
          title={t('product.videoTitle', { name: title })}
          allow="autoplay; encrypted-media; picture-in-picture"
          allowFullScreen
          className="absolute inset-0 size-full border-0"
        />
      ) : (
        <button
          type="button"
          onClick={() => setPlaying(true)}
          aria-label={t('product.playVideo', { name: title })}
          className="group absolute inset-0 grid place-items-center"
        >
          {poster && (
            <img
              src={poster}
              alt=""
              fetchPriority="high"
              width={800}
              height={450}
              className="absolute inset-0 size-full object-cover opacity-80"
            />
          )}
          <span className="relative grid size-16 place-items-center rounded-full bg-black/60 text-white transition group-hover:bg-primary group-hover:text-on-primary">
            <Play className="size-7 translate-x-0.5" aria-hidden />
          </span>
        </button>
      )}
    </div>
  )
}
