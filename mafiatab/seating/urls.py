from django.urls import path

from mafiatab.seating import views

app_name = "seating"

urlpatterns = [
    path("seating/", views.index, name="index"),
    path("seating/mine/", views.mine, name="mine"),
    path("seating/drafts/", views.drafts, name="drafts"),
    path("seating/drafts/generate/", views.generate, name="generate"),
    path("seating/drafts/<int:pk>/", views.draft_detail, name="draft"),
    path("seating/drafts/<int:pk>/regenerate/", views.regenerate, name="regenerate"),
    path("seating/drafts/<int:pk>/publish/", views.publish, name="publish"),
    path("seating/<int:pk>/print/", views.print_sheet, name="print"),
    # the registrations page's form: a reserve for a late participant
    path("registrations/replace/", views.replace, name="replace"),
]
