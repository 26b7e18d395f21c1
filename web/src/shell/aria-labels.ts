import type { i18n as I18n } from 'i18next'
import type { ru } from '../i18n/ru'

type AriaName = keyof typeof ru.aria

/**
 * Ant Design writes English into the names a screen reader says: every icon is an image named
 * after itself («down», «search», «ellipsis»), an InputNumber's arrows are «Increase Value» and
 * «Decrease Value», a Segmented is a «segmented control», a clear button «clear». None of it is
 * in its locales, so the names are said again here, in the console's language: an icon beside
 * words or outside any control is decoration, hidden and its English name taken off; an icon that is a control's only
 * content, and the fixed English names, are translated (the English kept to translate again when
 * the language changes).
 */
const NAMES: Record<string, AriaName> = {
  'Increase Value': 'increase',
  'Decrease Value': 'decrease',
  'segmented control': 'choice',
  clear: 'clear',
  Clear: 'clear',
  close: 'close',
  Close: 'close',
}
/** what an icon means when it is all a control shows */
const ICON_NAMES: Record<string, AriaName> = {
  search: 'search',
  ellipsis: 'more',
  close: 'close',
  'close-circle': 'clear',
  reload: 'reload',
  menu: 'menu',
  'menu-fold': 'menu',
  'menu-unfold': 'menu',
  // a pagination's (or a carousel's) arrows
  left: 'previous',
  right: 'next',
}
const ENGLISH = 'data-aria-en'
const CONTROL = 'button, a, [role="button"], [role="tab"], [role="menuitem"]'
const ICON = '.anticon[role="img"]'

function translate (element: Element, names: Record<string, AriaName>, i18n: I18n): void {
  const english = element.getAttribute(ENGLISH) ?? element.getAttribute('aria-label') ?? ''
  const key = names[english]
  if (!key) return
  const label = i18n.t(`aria.${key}`)
  element.setAttribute(ENGLISH, english)
  if (element.getAttribute('aria-label') !== label) element.setAttribute('aria-label', label)
}

function nameIcon (icon: Element, i18n: I18n): void {
  const control = icon.closest(CONTROL)
  const alone = control !== null && !control.hasAttribute('aria-label') && (control.textContent ?? '').trim() === ''
  if (alone) { translate(icon, ICON_NAMES, i18n); return }
  // decoration: hidden, and its English name taken off the page (kept aside should the icon become a control's only content)
  if (icon.getAttribute('aria-hidden') !== 'true') icon.setAttribute('aria-hidden', 'true')
  const english = icon.getAttribute('aria-label')
  if (english !== null) {
    if (!icon.hasAttribute(ENGLISH)) icon.setAttribute(ENGLISH, english)
    icon.removeAttribute('aria-label')
  }
}

function name (element: Element, i18n: I18n): void {
  if (element.matches(ICON)) nameIcon(element, i18n)
  else translate(element, NAMES, i18n)
}

const NAMED = `[aria-label], [${ENGLISH}]`

function nameAll (root: Element, i18n: I18n): void {
  if (root.matches(NAMED)) name(root, i18n)
  for (const element of root.querySelectorAll(NAMED)) name(element, i18n)
}

/** names the controls of the page in the console's language from now on, as they appear and when the language changes */
export function nameControlsInLanguage (root: HTMLElement, i18n: I18n): void {
  const observer = new MutationObserver((changes) => {
    for (const change of changes) {
      if (change.type === 'attributes') name(change.target as Element, i18n)
      else for (const node of change.addedNodes) if (node instanceof Element) nameAll(node, i18n)
    }
  })
  observer.observe(root, { subtree: true, childList: true, attributes: true, attributeFilter: ['aria-label'] })
  nameAll(root, i18n)
  i18n.on('languageChanged', () => nameAll(root, i18n))
}
