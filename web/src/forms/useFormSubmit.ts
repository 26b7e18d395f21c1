import { useMutation, useQueryClient, type QueryKey } from '@tanstack/react-query'
import { App, Form, type FormInstance } from 'antd'
import { useState } from 'react'
import { useTranslation } from 'react-i18next'
import type { ApiProblem } from '../api/client'
import { showProblems } from './problems'

export interface FormSubmitOptions<V, R> {
  /** the request: an API layer's function, whose refusal is thrown as an ApiProblem */
  send: (values: V) => Promise<R>
  /** the queries read again after it went through (with the prefix rule of query keys) */
  invalidates?: QueryKey[]
  /** what follows success: a navigation, a reset, a closed dialog */
  onDone?: (result: R, values: V) => void
  /** told as the request leaves, and when it was refused (a page that follows its own actions' events) */
  onSend?: () => void
  onFailed?: () => void
  /** a message after success; none when omitted */
  saidOnDone?: string
  /** the page's own words for a refusal (a 401 at sign-in); undefined: the usual words, a 422 on the fields */
  explain?: (problem: ApiProblem) => string | undefined
  /** a message shown above the form before anything is sent (an expired session) */
  initialError?: string
}

export interface FormSubmit<V> {
  form: FormInstance<V>
  busy: boolean
  /** what to show above the form: a refusal that belongs to no field, or a request that never reached the service */
  error?: string
  /** the form's onFinish */
  handleSubmit: (values: V) => void
  /** forgets the message above the form (a form started afresh) */
  clearError: () => void
}

/**
 * The console's one way to send a form: busy while it runs; a 422 lands on the fields it names, the
 * rest of a refusal is said above the form in the console's language, and a request that never
 * reached the service says so; on success the lists it changed are read again.
 */
export function useFormSubmit<V, R = unknown> ({ send, invalidates = [], onDone, onSend, onFailed, saidOnDone, explain, initialError }: FormSubmitOptions<V, R>): FormSubmit<V> {
  const { t } = useTranslation()
  const { message } = App.useApp()
  const queries = useQueryClient()
  const [form] = Form.useForm<V>()
  const [error, setError] = useState(initialError)
  const mutation = useMutation({
    mutationFn: send,
    onMutate: () => { setError(undefined); onSend?.() },
    onSuccess: (result, values) => {
      if (saidOnDone) void message.success(saidOnDone)
      for (const queryKey of invalidates) void queries.invalidateQueries({ queryKey })
      onDone?.(result, values)
    },
    onError: (problem: ApiProblem) => { onFailed?.(); setError(explain?.(problem) ?? showProblems(form, problem, t)) },
  })
  return { form, busy: mutation.isPending, error, handleSubmit: (values) => mutation.mutate(values), clearError: () => setError(undefined) }
}
