"""Staff views of the notifications: every delivery with its attempts and last error
(read-only: the record of what was sent), the campaigns' webhooks, the preferences."""

from django import forms
from django.contrib import admin
from django.core.exceptions import ValidationError

from campaign.core.refusals import Refused
from campaign.notify.addresses import webhook_url_check
from campaign.notify.models import (
    CampaignWebhook,
    Delivery,
    NotificationPreference,
    NotificationProfile,
)


@admin.register(Delivery)
class DeliveryAdmin(admin.ModelAdmin):
    list_display = ("created_at", "campaign", "kind", "channel", "address", "status", "attempts")
    list_filter = ("status", "channel", "kind", "campaign")
    search_fields = ("address", "subject", "last_error")
    readonly_fields = [f.name for f in Delivery._meta.fields]

    def has_add_permission(self, request):
        return False


class CampaignWebhookForm(forms.ModelForm):
    """The admin checks the address as the organisers' page does."""

    url = forms.URLField(max_length=500, assume_scheme="https")

    class Meta:
        model = CampaignWebhook
        fields = ["campaign", "url", "kinds", "enabled"]

    def clean_url(self) -> str:
        try:
            return webhook_url_check(self.cleaned_data.get("url", ""), field="url")
        except Refused as exc:
            raise ValidationError(str(exc)) from exc


@admin.register(CampaignWebhook)
class CampaignWebhookAdmin(admin.ModelAdmin):
    form = CampaignWebhookForm
    list_display = ("campaign", "enabled", "last_status", "last_at")
    readonly_fields = ("last_status", "last_error", "last_at", "updated_by")


admin.site.register(NotificationPreference)
admin.site.register(NotificationProfile)
