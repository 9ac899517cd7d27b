;;; drive_eglot.el --- batch Emacs + eglot driving the CiteLens server  -*- lexical-binding: t -*-
;; Open a run, collect flymake's diagnostics, hover a citation, apply a quick fix, collect
;; the diagnostics again; write JSON to $CITELENS_OUT. Run: emacs --batch -l drive_eglot.el
;; (without -Q: Debian's site-start puts elpa-eglot on the load path).
(package-initialize)
(require 'eglot)
(require 'flymake)
(require 'json)

(setq eglot-sync-connect 20 eglot-autoshutdown t eglot-events-buffer-size 0)
(define-derived-mode citelens-jsonl-mode prog-mode "JSONL")
(add-to-list 'auto-mode-alist '("\\.jsonl\\'" . citelens-jsonl-mode))
(add-to-list 'eglot-server-programs
             `(citelens-jsonl-mode . (,(getenv "CITELENS_PY") "-m" "citelens_server"
                                      :initializationOptions (:debounceMs 0))))

(defun citelens-wait (pred secs)
  (let ((end (+ (float-time) secs)))
    (while (and (not (funcall pred)) (< (float-time) end))
      (accept-process-output nil 0.02))
    (funcall pred)))

(defun citelens-collect ()
  (vconcat
   (mapcar (lambda (d)
             (let ((lsp (cdr (assoc 'eglot-lsp-diag (flymake-diagnostic-data d)))))
               (list (cons 'beg (flymake-diagnostic-beg d))
                     (cons 'end (flymake-diagnostic-end d))
                     (cons 'code (plist-get lsp :code))
                     (cons 'message (plist-get lsp :message)))))
           (flymake-diagnostics))))

(let ((result (list (cons 'version (if (boundp 'eglot--version) eglot--version "1.9"))))
      (hover-point (string-to-number (getenv "CITELENS_HOVER_POINT")))
      (fix-code (getenv "CITELENS_FIX_CODE")))
  (find-file (getenv "CITELENS_FILE"))
  (eglot-ensure)
  (run-hooks 'post-command-hook)          ; eglot-ensure connects from post-command-hook
  (citelens-wait (lambda () (eglot-current-server)) 20)
  (citelens-wait (lambda () (flymake-diagnostics)) 20)
  (push (cons 'diagnostics (citelens-collect)) result)

  (goto-char hover-point)
  (let* ((server (eglot-current-server))
         (hover (jsonrpc-request server :textDocument/hover (eglot--TextDocumentPositionParams))))
    (push (cons 'hover (plist-get (plist-get hover :contents) :value)) result))

  (let* ((server (eglot-current-server))
         (diag (seq-find (lambda (d)
                           (equal (plist-get (cdr (assoc 'eglot-lsp-diag (flymake-diagnostic-data d))) :code)
                                  fix-code))
                         (flymake-diagnostics)))
         (lsp (cdr (assoc 'eglot-lsp-diag (flymake-diagnostic-data diag))))
         (actions (jsonrpc-request server :textDocument/codeAction
                                   (list :textDocument (eglot--TextDocumentIdentifier)
                                         :range (plist-get lsp :range)
                                         :context (list :diagnostics (vector lsp) :only ["quickfix"]))))
         (action (seq-find (lambda (a) (plist-get a :edit)) actions))
         (count (length (flymake-diagnostics))))
    (when action
      (push (cons 'action (plist-get action :title)) result)
      (eglot--apply-workspace-edit (plist-get action :edit))
      ;; eglot sends didChange from an idle timer, which never fires in batch mode
      (eglot--signal-textDocument/didChange)
      (push (cons 'applied t) result))
    (citelens-wait (lambda () (/= (length (flymake-diagnostics)) count)) 20)
    ;; the server publishes for the new version right after the edit; let it settle
    (let ((end (+ (float-time) 1.5))) (while (< (float-time) end) (accept-process-output nil 0.05))))
  (push (cons 'after (citelens-collect)) result)
  (push (cons 'buffer (buffer-substring-no-properties (point-min) (point-max))) result)
  (with-temp-file (getenv "CITELENS_OUT")
    (insert (json-encode result)))
  (set-buffer-modified-p nil)
  (ignore-errors (eglot-shutdown (eglot-current-server)))
  (kill-emacs 0))
