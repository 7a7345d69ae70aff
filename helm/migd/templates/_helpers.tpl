{{/* The chart's name. */}}
{{- define "migd.name" -}}
{{- default .Chart.Name .Values.nameOverride | trunc 63 | trimSuffix "-" }}
{{- end }}

{{/* The release's full name: the release name, with the chart's name unless it already holds it. */}}
{{- define "migd.fullname" -}}
{{- if .Values.fullnameOverride }}
{{- .Values.fullnameOverride | trunc 63 | trimSuffix "-" }}
{{- else }}
{{- $name := default .Chart.Name .Values.nameOverride }}
{{- if contains $name .Release.Name }}
{{- .Release.Name | trunc 63 | trimSuffix "-" }}
{{- else }}
{{- printf "%s-%s" .Release.Name $name | trunc 63 | trimSuffix "-" }}
{{- end }}
{{- end }}
{{- end }}

{{- define "migd.selectorLabels" -}}
app.kubernetes.io/name: {{ include "migd.name" . }}
app.kubernetes.io/instance: {{ .Release.Name }}
{{- end }}

{{- define "migd.labels" -}}
helm.sh/chart: {{ printf "%s-%s" .Chart.Name .Chart.Version | replace "+" "_" | trunc 63 | trimSuffix "-" }}
{{ include "migd.selectorLabels" . }}
app.kubernetes.io/version: {{ .Chart.AppVersion | quote }}
app.kubernetes.io/managed-by: {{ .Release.Service }}
{{- end }}

{{- define "migd.serviceAccountName" -}}
{{- if .Values.serviceAccount.create }}
{{- default (include "migd.fullname" .) .Values.serviceAccount.name }}
{{- else }}
{{- default "default" .Values.serviceAccount.name }}
{{- end }}
{{- end }}

{{- define "migd.image" -}}
{{- printf "%s:%s" .Values.image.repository (default .Chart.AppVersion .Values.image.tag) }}
{{- end }}

{{/* The config file in the ConfigMap: the values' own, else the shipped default.yaml. */}}
{{- define "migd.configFile" -}}
{{- if .Values.migd.configFile }}
{{- .Values.migd.configFile }}
{{- else }}
{{- .Files.Get "files/default.yaml" }}
{{- end }}
{{- end }}

{{/* Refuses value combinations the schema cannot express, naming the values to change. */}}
{{- define "migd.validate" -}}
{{- if and (eq .Values.auth.mode "none") (ne .Values.server.address "127.0.0.1") }}
{{- fail (printf "auth.mode none accepts REST calls without a token, so migd allows it only on a loopback address: set auth.mode to kubernetes or token, or server.address to 127.0.0.1 (it is %s)" .Values.server.address) }}
{{- end }}
{{- if and (eq .Values.auth.mode "token") (not .Values.auth.tokenSecret.name) }}
{{- fail "auth.mode token needs auth.tokenSecret.name: the Secret holding the token (key auth.tokenSecret.key)" }}
{{- end }}
{{- if and .Values.serviceMonitor.enabled (not .Values.service.enabled) }}
{{- fail "serviceMonitor.enabled needs service.enabled: the ServiceMonitor selects the Service" }}
{{- end }}
{{- end }}
